/**
 * Height in pixels of a JPEG, from its start-of-frame marker: a full-page screenshot is as tall
 * as the page, which tells the reader what the bench's pages cost to capture. Undefined when the
 * data is not a JPEG this simple walk understands.
 */
export function jpegHeight(data: Buffer): number | undefined {
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 7 < data.length && data[offset] === 0xff) {
    const marker = data[offset + 1]!;
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return data.readUInt16BE(offset + 5);
    }
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return undefined;
}
