import { useQuery } from '@tanstack/react-query'
import type { ComponentProps } from 'react'

import { Select } from '@/components/ui/textarea'
import { categoryQueries } from '../api/blog-queries'

/**
 * A post's category: 'No category' (value '') or one of blog_categories by id. The list loads itself (cached for
 * five minutes); while it loads only 'No category' is offered.
 */
export function BlogCategorySelect(props: Omit<ComponentProps<typeof Select>, 'children'>) {
  const categories = useQuery(categoryQueries.list())
  return (
    <Select {...props}>
      <option value="">No category</option>
      {categories.data?.map((category) => (
        <option key={category.id} value={category.id}>
          {category.name}
        </option>
      ))}
    </Select>
  )
}
