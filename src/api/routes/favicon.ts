/**
 * Kumo's mark, a cloud, as the browsers' tab icon (docs/console.md, Addresses): an SVG for the
 * pages that link it, and the same shape drawn into a 32×32 ICO for /favicon.ico, which browsers
 * ask for on their own. Both are made here from one shape, so the repository holds no binary.
 */

/** The cloud: three discs on a flat base, in a 32×32 box. */
const DISCS: readonly { x: number; y: number; r: number }[] = [
  { x: 10, y: 19, r: 6 },
  { x: 17, y: 13, r: 8 },
  { x: 24, y: 18, r: 6 },
];
const BASE = { left: 10, right: 24, top: 19, bottom: 25 };
/** The console's accent blue (--accent of its stylesheet). */
const COLOUR = { red: 0x1a, green: 0x56, blue: 0xc4 };

const hex = (value: number) => value.toString(16).padStart(2, '0');

export const FAVICON_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
  `<g fill="#${hex(COLOUR.red)}${hex(COLOUR.green)}${hex(COLOUR.blue)}">`,
  ...DISCS.map((disc) => `<circle cx="${disc.x}" cy="${disc.y}" r="${disc.r}"/>`),
  `<rect x="${BASE.left}" y="${BASE.top}" width="${BASE.right - BASE.left}" height="${BASE.bottom - BASE.top}"/>`,
  '</g>',
  '</svg>',
].join('');

/** Whether the pixel whose centre is (x + ½, y + ½) lies in the cloud. */
function inCloud(x: number, y: number): boolean {
  const cx = x + 0.5;
  const cy = y + 0.5;
  if (cx >= BASE.left && cx <= BASE.right && cy >= BASE.top && cy <= BASE.bottom) return true;
  return DISCS.some((disc) => (cx - disc.x) ** 2 + (cy - disc.y) ** 2 <= disc.r ** 2);
}

/** A one-image ICO: 32×32, 32-bit BGRA rows bottom-up, then the (unused, all-zero) AND mask. */
function cloudIco(): Buffer {
  const size = 32;
  const pixels = Buffer.alloc(size * size * 4);
  for (let row = 0; row < size; row += 1) {
    const y = size - 1 - row;
    for (let x = 0; x < size; x += 1) {
      if (!inCloud(x, y)) continue;
      const at = (row * size + x) * 4;
      pixels[at] = COLOUR.blue;
      pixels[at + 1] = COLOUR.green;
      pixels[at + 2] = COLOUR.red;
      pixels[at + 3] = 0xff;
    }
  }
  const mask = Buffer.alloc((size / 8) * size);
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  // An ICO's bitmap height counts the colour rows and the mask rows.
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(1, 4);
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt16LE(1, 10);
  directory.writeUInt16LE(32, 12);
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18);
  return Buffer.concat([directory, image]);
}

export const FAVICON_ICO: Buffer = cloudIco();
