/**
 * Regenerates the raster brand assets from their SVG sources with sharp (run after editing an SVG; the outputs are
 * committed): the favicon set from public/logo.svg (favicon.ico 32 px, apple-touch-icon 180 px, manifest icons 192
 * and 512 px) and src/assets/hero.png from src/assets/hero.svg (src/integrations/hero-picture.ts makes AVIF/WebP/PNG
 * sizes from it at build).
 *
 *   npm run brand:assets
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'

const root = path.resolve(import.meta.dirname, '..')
const logo = await fs.readFile(path.join(root, 'public/logo.svg'))

const png = (size: number) =>
  sharp(logo, { density: 72 * (size / 64) * 2 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer()

for (const [file, size] of [
  ['public/apple-touch-icon.png', 180],
  ['public/icon-192.png', 192],
  ['public/icon-512.png', 512],
] as const) {
  await fs.writeFile(path.join(root, file), await png(size))
}

// favicon.ico: one 32x32 PNG image in an ICO container (ICONDIR + one ICONDIRENTRY, PNG payload since Windows Vista).
const icon = await png(32)
const header = Buffer.alloc(22)
header.writeUInt16LE(0, 0) // reserved
header.writeUInt16LE(1, 2) // type: icon
header.writeUInt16LE(1, 4) // image count
header.writeUInt8(32, 6) // width
header.writeUInt8(32, 7) // height
header.writeUInt8(0, 8) // palette size
header.writeUInt8(0, 9) // reserved
header.writeUInt16LE(1, 10) // colour planes
header.writeUInt16LE(32, 12) // bits per pixel
header.writeUInt32LE(icon.length, 14) // payload size
header.writeUInt32LE(22, 18) // payload offset
await fs.writeFile(path.join(root, 'public/favicon.ico'), Buffer.concat([header, icon]))

const hero = await fs.readFile(path.join(root, 'src/assets/hero.svg'))
await sharp(hero, { density: 144 })
  .resize(1440, 960)
  .png({ compressionLevel: 9, palette: true })
  .toFile(path.join(root, 'src/assets/hero.png'))

console.log(
  'Brand assets written: public/favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png, src/assets/hero.png',
)
