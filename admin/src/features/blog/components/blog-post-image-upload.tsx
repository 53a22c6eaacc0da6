import { useId, useState } from 'react'

import { uploadPostMedia } from '../api/post-media'

/**
 * "Upload image" for the featured image: sends the chosen file to the post-media bucket and hands its public URL
 * back. Shows the upload in progress, the error (type, size, Storage refusal) and the uploaded image.
 */
export function BlogPostImageUpload({ url, onUploaded }: { url: string; onUploaded: (url: string) => void }) {
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'uploading'; name: string } | { kind: 'error'; message: string }
  >({ kind: 'idle' })
  const id = useId()

  async function upload(file: File) {
    setState({ kind: 'uploading', name: file.name })
    try {
      onUploaded(await uploadPostMedia(file))
      setState({ kind: 'idle' })
    } catch (error) {
      setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) })
    }
  }

  return (
    <div className="space-y-2">
      <label
        htmlFor={id}
        className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
      >
        Upload image
      </label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        className="sr-only"
        disabled={state.kind === 'uploading'}
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (file) void upload(file)
        }}
      />
      {state.kind === 'uploading' && (
        <p role="status" className="text-xs text-slate-600">
          Uploading {state.name}...
        </p>
      )}
      {state.kind === 'error' && (
        <p role="alert" className="text-xs text-red-700">
          {state.message}
        </p>
      )}
      {url ? (
        <img
          src={url}
          alt="Featured image preview"
          className="max-h-40 rounded-md border border-slate-200 object-cover"
        />
      ) : (
        <p className="text-xs text-slate-500">No featured image yet.</p>
      )}
    </div>
  )
}
