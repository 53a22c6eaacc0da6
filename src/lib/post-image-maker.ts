/**
 * The hand-off between the page code that writes a blog post's images (./post-images.ts) and the build integration
 * that makes their resized files with sharp (src/integrations/post-images.ts). The static build renders the articles
 * in its own Node process, where the integration puts a {@link PostImageMaker} on `globalThis` under
 * {@link POST_IMAGE_MAKER}; the site's worker bundles no sharp and has none, and the page then keeps the image's
 * address. No imports: the worker bundles this module.
 */

/** The key of the maker on `globalThis`. */
export const POST_IMAGE_MAKER = Symbol.for('agentinsight.post-image-maker')

/** An image's size in px and its files: public paths with the width (px) each was made at. */
export interface MadePostImage {
  width: number
  height: number
  files: { path: string; width: number }[]
}

/**
 * Downloads the image at `url` and makes a WebP file at each width `widthsFor` gives for its natural width.
 * @throws when the download fails or the bytes are not an image.
 */
export type PostImageMaker = (url: string, widthsFor: (naturalWidth: number) => number[]) => Promise<MadePostImage>

/** The maker the build installed, if any. */
export const postImageMaker = (): PostImageMaker | undefined =>
  (globalThis as { [POST_IMAGE_MAKER]?: PostImageMaker })[POST_IMAGE_MAKER]
