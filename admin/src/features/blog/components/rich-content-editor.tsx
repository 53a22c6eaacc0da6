import { mergeAttributes, Node } from '@tiptap/core'
import Image from '@tiptap/extension-image'
import type { Editor } from '@tiptap/react'
import { EditorContent, useEditor, useEditorState } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { useEffect, useId, useRef, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { CALLOUT_INSIGHT } from '@shared/post-html-policy.ts'
import { POST_MEDIA_TYPES } from '../api/post-media-rules'
import { uploadPostMedia } from '../api/post-media'
import { richEditorUnsupported } from '../api/rich-editor-support'

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

/** An http(s) URL or null: what the image panel's address field accepts. */
function httpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** An http(s) URL typed by the operator, or null (cancelled, or not http(s)). */
function askUrl(question: string, current = ''): string | null {
  const answer = window.prompt(question, current)?.trim()
  return answer ? httpUrl(answer) : null
}

interface ToolProps {
  label: string
  active?: boolean
  onClick: () => void
  children: string
}

function Tool({ label, active = false, onClick, children }: ToolProps) {
  return (
    <Button
      variant={active ? 'default' : 'outline'}
      size="sm"
      aria-label={label}
      aria-pressed={active}
      onClick={onClick}
    >
      {children}
    </Button>
  )
}

interface ToolbarProps {
  editor: Editor
  source: boolean
  onSource: (source: boolean) => void
  imageOpen: boolean
  onImage: (open: boolean) => void
}

function Toolbar({ editor, source, onSource, imageOpen, onImage }: ToolbarProps) {
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
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap gap-1 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1.5"
    >
      {!source && (
        <>
          <Tool label="Heading 2" active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
            H2
          </Tool>
          <Tool label="Heading 3" active={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
            H3
          </Tool>
          <Tool label="Bullet list" active={state.bullets} onClick={() => chain().toggleBulletList().run()}>
            • List
          </Tool>
          <Tool label="Numbered list" active={state.numbers} onClick={() => chain().toggleOrderedList().run()}>
            1. List
          </Tool>
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
          <Tool label="Image" active={imageOpen} onClick={() => onImage(!imageOpen)}>
            Image
          </Tool>
          <Tool label="Callout" active={state.callout} onClick={() => chain().toggleWrap('callout').run()}>
            Callout
          </Tool>
        </>
      )}
      <span className="ml-auto">
        <Tool label="Edit HTML" active={source} onClick={() => onSource(!source)}>
          HTML
        </Tool>
      </span>
    </div>
  )
}

/** The alt text a dropped or pasted file gets: its name without extension, dashes and underscores as spaces. */
export function altFromFileName(name: string): string {
  return (
    name
      .replace(/\.[a-z0-9]+$/i, '')
      .replace(/[-_]+/g, ' ')
      .trim() || 'Image'
  )
}

type UploadState = { kind: 'idle' } | { kind: 'uploading'; name: string } | { kind: 'error'; message: string }

/**
 * The toolbar's image panel: upload a file to Storage (bucket post-media, the featured image's limits and messages)
 * or give an image address, then describe it (alt text, required: the article is read by screen readers and search
 * engines) and insert it at the cursor.
 */
function ImagePanel({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [src, setSrc] = useState('')
  const [alt, setAlt] = useState('')
  const [upload, setUpload] = useState<UploadState>({ kind: 'idle' })
  const [problem, setProblem] = useState<string | null>(null)
  const id = useId()

  async function uploadFile(file: File) {
    setUpload({ kind: 'uploading', name: file.name })
    setProblem(null)
    try {
      setSrc(await uploadPostMedia(file))
      if (!alt) setAlt(altFromFileName(file.name))
      setUpload({ kind: 'idle' })
    } catch (error) {
      setUpload({ kind: 'error', message: error instanceof Error ? error.message : String(error) })
    }
  }

  function insert() {
    const url = httpUrl(src)
    if (!url) return setProblem('Enter an image address starting with https:// or upload a file.')
    if (!alt.trim()) return setProblem('Describe the image in Alt text.')
    editor.chain().focus().setImage({ src: url, alt: alt.trim() }).run()
    onClose()
  }

  return (
    <div
      role="group"
      aria-label="Insert image"
      className="space-y-2 border border-b-0 border-slate-300 bg-white p-3 text-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <label
          htmlFor={`${id}-file`}
          className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-50"
        >
          Upload image file
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={POST_MEDIA_TYPES.join(',')}
          className="sr-only"
          disabled={upload.kind === 'uploading'}
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file) void uploadFile(file)
          }}
        />
        <span className="text-slate-500">or paste an address below. JPEG, PNG, WebP, AVIF or GIF, up to 5 MB.</span>
      </div>
      {upload.kind === 'uploading' && <p role="status">Uploading {upload.name}...</p>}
      {upload.kind === 'error' && (
        <p role="alert" className="text-red-700">
          {upload.message}
        </p>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-src`} className="mb-1 block font-medium">
            Image address
          </label>
          <Input
            id={`${id}-src`}
            type="url"
            placeholder="https://..."
            value={src}
            onChange={(event) => setSrc(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-alt`} className="mb-1 block font-medium">
            Alt text
          </label>
          <Input id={`${id}-alt`} maxLength={200} value={alt} onChange={(event) => setAlt(event.target.value)} />
        </div>
      </div>
      {problem && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose}>
          Cancel
        </Button>
        <Button size="sm" onClick={insert} disabled={upload.kind === 'uploading'}>
          Insert image
        </Button>
      </div>
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
  // a post with markup the rich editor would drop (a table, an embed) opens in HTML mode, so nothing is lost on save
  const [source, setSource] = useState(() => richEditorUnsupported(value).length > 0)
  const unsupported = source ? richEditorUnsupported(value) : []
  const [imageOpen, setImageOpen] = useState(false)
  const [dropState, setDropState] = useState<UploadState>({ kind: 'idle' })
  // The HTML this editor recently reported: a `value` among them is the echo of typing, not a change from outside (the
  // echo can lag behind fast typing, and resetting the document to it would drop the keys typed since).
  const reported = useRef(new Set([value]))
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: value,
    editorProps: {
      attributes: { id, 'aria-label': 'Content', 'aria-multiline': 'true', role: 'textbox', class: SURFACE_CLASS },
      // an image file pasted or dropped into the text goes to Storage and is inserted where it landed
      handlePaste: (_view, event) => insertFiles(event.clipboardData?.files),
      handleDrop: (view, event) => {
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos
        return insertFiles(event.dataTransfer?.files, at)
      },
    },
    onUpdate: ({ editor: current }) => {
      const html = postHtml(current)
      reported.current.add(html)
      if (reported.current.size > REPORTED_KEPT) reported.current.delete(reported.current.values().next().value ?? '')
      onChange(html)
    },
  })

  /** Uploads the image files among `files` and inserts each at `at` (or the cursor); false when there is none. */
  function insertFiles(files: FileList | null | undefined, at?: number): boolean {
    const images = [...(files ?? [])].filter((file) => file.type.startsWith('image/'))
    if (images.length === 0) return false
    void (async () => {
      for (const file of images) {
        setDropState({ kind: 'uploading', name: file.name })
        try {
          const src = await uploadPostMedia(file)
          const image = { type: 'image', attrs: { src, alt: altFromFileName(file.name) } }
          const chain = editorRef.current?.chain().focus()
          if (at === undefined) chain?.insertContent(image).run()
          else chain?.insertContentAt(at, image).run()
          setDropState({ kind: 'idle' })
        } catch (error) {
          setDropState({ kind: 'error', message: error instanceof Error ? error.message : String(error) })
          return
        }
      }
    })()
    return true
  }
  const editorRef = useRef<Editor | null>(null)
  useEffect(() => {
    editorRef.current = editor
  }, [editor])

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
      <Toolbar
        editor={editor}
        source={source}
        onSource={(next) => {
          const lost = next ? [] : richEditorUnsupported(value)
          if (
            lost.length > 0 &&
            !window.confirm(
              `The rich editor cannot keep this post's ${lost.join(', ')}: switching drops them on the next save. Switch anyway?`,
            )
          )
            return
          setSource(next)
        }}
        imageOpen={imageOpen && !source}
        onImage={setImageOpen}
      />
      {imageOpen && !source && <ImagePanel editor={editor} onClose={() => setImageOpen(false)} />}
      {dropState.kind === 'uploading' && (
        <p role="status" className="border border-b-0 border-slate-300 bg-slate-50 px-3 py-1 text-sm">
          Uploading {dropState.name}...
        </p>
      )}
      {dropState.kind === 'error' && (
        <p role="alert" className="border border-b-0 border-slate-300 bg-red-50 px-3 py-1 text-sm text-red-700">
          {dropState.message}
        </p>
      )}
      {unsupported.length > 0 && (
        <p role="note" className="border border-b-0 border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
          This post has markup the rich editor cannot keep ({unsupported.join(', ')}), so it opens in HTML mode.
        </p>
      )}
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
