import { contentDisposition, parseRange, safeFilename, sniffRasterImage } from './asset-files';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('sniffRasterImage', () => {
  it('tells the raster formats by their first bytes', () => {
    expect(sniffRasterImage(PNG)).toBe('image/png');
    expect(sniffRasterImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffRasterImage(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(sniffRasterImage(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffRasterImage(Buffer.from('\x00\x00\x00\x1cftypavif\x00\x00', 'latin1'))).toBe('image/avif');
    expect(sniffRasterImage(Buffer.from('BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00', 'latin1'))).toBe('image/bmp');
  });

  it('refuses what is not one, whatever it claims', () => {
    expect(sniffRasterImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffRasterImage(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(sniffRasterImage(Buffer.from('GIF90a'))).toBeNull();
    expect(sniffRasterImage(PNG.subarray(0, 7))).toBeNull();
    expect(sniffRasterImage(Buffer.alloc(0))).toBeNull();
  });
});

describe('safeFilename', () => {
  it('keeps the last part of a path only', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\shot.png')).toBe('shot.png');
  });

  it('drops control and bidirectional-override characters', () => {
    expect(safeFilename('a\u0000b\r\nc.txt')).toBe('abc.txt');
    expect(safeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('is never empty, . or ..', () => {
    expect(safeFilename('')).toBe('file');
    expect(safeFilename('..')).toBe('file');
    expect(safeFilename('dir/')).toBe('file');
  });

  it('cuts a long name to 200 characters and keeps its extension', () => {
    const out = safeFilename(`${'x'.repeat(300)}.png`);
    expect([...out]).toHaveLength(200);
    expect(out.endsWith('.png')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266)', () => {
    expect(contentDisposition('attachment', 'Bericht "März" 100%.pdf')).toBe(
      `attachment; filename="Bericht _M_rz_ 100_.pdf"; filename*=UTF-8''Bericht%20%22M%C3%A4rz%22%20100%25.pdf`,
    );
    expect(contentDisposition('inline', "it's (1).png")).toBe(`inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`);
  });
});

describe('parseRange', () => {
  it('reads one range, open ranges and suffixes', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
  });

  it('answers the whole file for what it may ignore, 416 for what cannot be met', () => {
    expect(parseRange(undefined, 100)).toBe('whole');
    expect(parseRange('bytes=0-1,5-6', 100)).toBe('whole');
    expect(parseRange('items=0-1', 100)).toBe('whole');
    expect(parseRange('bytes=9-3', 100)).toBe('whole');
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
