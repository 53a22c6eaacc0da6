import { mergeAttributes, Node } from '@tiptap/core'
import Image from '@tiptap/extension-image'
import type { Editor } from '@tiptap/react'
import { EditorContent, useEditor, useEditorState } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { useEffect, useRef, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { CALLOUT_INSIGHT } from '@shared/post-html-policy.ts'

/**
 * An insight callout in the post body: `<div data-callout="insight">` holding paragraphs, lists or headings. It is the
 * one callout markup the post allow-list keeps (@shared/post-html-policy.ts), and the article and the admin preview
 * style it as an insight card.
 */
const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,
  parseHTML: () => [{ tag: `div[data-callout="${CALLOUT_INSIGHT}"]` }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-callout': CALLOUT_INSIGHT }), 0],
})

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    code: false,
    codeBlock: false,
    link: { openOnClick: false, autolink: true, protocols: ['mailto', 'tel'] },
  }),
  Image.configure({ inline: false }),
  Callout,
]

/** How many of its own recent outputs the editor remembers to recognise their echo (see `reported`). */
const REPORTED_KEPT = 50

/** Classes for the editing surface: the article's body styles, so what is written looks like what goes live. */
const SURFACE_CLASS =
  'min-h-64 space-y-3 rounded-b-md border border-slate-300 bg-white px-3 py-2 text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 [&_a]:text-blue-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_img]:max-h-72 [&_img]:rounded-lg [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 [&_[data-callout]]:rounded-lg [&_[data-callout]]:border [&_[data-callout]]:border-blue-100 [&_[data-callout]]:bg-blue-50 [&_[data-callout]]:p-4 [&_[data-callout]]:text-blue-900'

/**
 * The document as post HTML: '' when empty, and without the empty paragraphs the editor keeps at the end (its trailing
 * node, there so the cursor can leave a final list or callout), which would render as blank space on the article.
 */
function postHtml(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML().replace(/(?:<p><\/p>)+$/, '')
}

/** An http(s) URL typed by the operator, or null (cancelled, or not http(s)). */
function askUrl(question: string, current = ''): string | null {
  const answer = window.prompt(question, current)?.trim()
  if (!answer) return null
  try {
    const url = new URL(answer)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

interface ToolProps {
  label: string
  active?: boolean
  onClick: () => void
  children: string
}

function Tool({ label, active = false, onClick, children }: ToolProps) {
  return (
    <Button variant={active ? 'default' : 'outline'} size="sm" aria-label={label} aria-pressed={active} onClick={onClick}>
      {children}
    </Button>
  )
}

function Toolbar({ editor, source, onSource }: { editor: Editor; source: boolean; onSource: (source: boolean) => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullets: current.isActive('bulletList'),
      numbers: current.isActive('orderedList'),
      link: current.isActive('link'),
      callout: current.isActive('callout'),
    }),
  })
  const chain = () => editor.chain().focus()
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1.5">
      {!source && (
        <>
          <Tool label="Heading 2" active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>H2</Tool>
          <Tool label="Heading 3" active={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>H3</Tool>
          <Tool label="Bullet list" active={state.bullets} onClick={() => chain().toggleBulletList().run()}>• List</Tool>
          <Tool label="Numbered list" active={state.numbers} onClick={() => chain().toggleOrderedList().run()}>1. List</Tool>
          <Tool
            label="Link"
            active={state.link}
            onClick={() => {
              const href = askUrl('Link address (https://...)', editor.getAttributes('link').href as string | undefined)
              if (href) chain().extendMarkRange('link').setLink({ href }).run()
              else chain().extendMarkRange('link').unsetLink().run()
            }}
          >
            Link
          </Tool>
          <Tool
            label="Image"
            onClick={() => {
              const src = askUrl('Image address (https://...)')
              if (src) chain().setImage({ src, alt: '' }).run()
            }}
          >
            Image
          </Tool>
          <Tool label="Callout" active={state.callout} onClick={() => chain().toggleWrap('callout').run()}>Callout</Tool>
        </>
      )}
      <span className="ml-auto">
        <Tool label="Edit HTML" active={source} onClick={() => onSource(!source)}>HTML</Tool>
      </span>
    </div>
  )
}

export interface RichContentEditorProps {
  /** id of the editing surface (the HTML textarea in HTML mode), for the field's label. */
  id: string
  /** Post HTML. */
  value: string
  /** Called with the editor's HTML after every change. */
  onChange: (html: string) => void
}

/**
 * The post body as a TipTap rich-text editor (headings H2/H3, lists, links, images, insight callouts) with an HTML
 * mode for pasting or fixing markup. Writes HTML that the public article sanitizes with the same allow-list; loaded
 * lazily by the post editor so TipTap never weighs on the admin's first load.
 */
export default function RichContentEditor({ id, value, onChange }: RichContentEditorProps) {
  const [source, setSource] = useState(false)
  // The HTML this editor recently reported: a `value` among them is the echo of typing, not a change from outside (the
  // echo can lag behind fast typing, and resetting the document to it would drop the keys typed since).
  const reported = useRef(new Set([value]))
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: value,
    editorProps: { attributes: { id, 'aria-label': 'Content', 'aria-multiline': 'true', role: 'textbox', class: SURFACE_CLASS } },
    onUpdate: ({ editor: current }) => {
      const html = postHtml(current)
      reported.current.add(html)
      if (reported.current.size > REPORTED_KEPT) reported.current.delete(reported.current.values().next().value ?? '')
      onChange(html)
    },
  })

  // A value set from outside (a restored revision, the HTML mode) replaces the document without echoing a change.
  useEffect(() => {
    if (!editor || source) return
    if (reported.current.has(value)) return
    reported.current = new Set([value])
    if (postHtml(editor) !== value) editor.commands.setContent(value, { emitUpdate: false })
  }, [editor, value, source])

  if (!editor) return null
  return (
    <div>
      <Toolbar editor={editor} source={source} onSource={setSource} />
      {source ? (
        <Textarea
          id={id}
          aria-label="Content"
          rows={12}
          className={cn('rounded-t-none font-mono')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <EditorContent editor={editor} />
      )}
    </div>
  )
}
