// The expert's signature: uploaded on /account, printed on the reports the
// expert signs; a file that is not an image is refused with the localized
// message.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { apiLogin, call } from '../lib/api';
import { publishedCase, reportPDF } from '../lib/cases';
import { expect, test } from '../lib/test';
import { signInWithToken, toast } from '../lib/ui';

/** A 240×80 PNG with a dark wavy stroke on white, written by hand (no image library in e2e). */
function signaturePNG(): Buffer {
  const w = 240, h = 80;
  const raw = Buffer.alloc((w * 3 + 1) * h, 0xff);
  for (let y = 0; y < h; y++) raw[y * (w * 3 + 1)] = 0;
  for (let x = 10; x < w - 10; x++) {
    const y0 = Math.round(h / 2 + 20 * Math.sin(x / 15));
    for (let d = -2; d <= 2; d++) raw.fill(0x20, (y0 + d) * (w * 3 + 1) + 1 + x * 3, (y0 + d) * (w * 3 + 1) + 1 + x * 3 + 3);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('the expert uploads a signature on /account and the reports carry it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const expert = await signInWithToken(page, 'expert', { lang: 'zh-CN', to: '/account' });
  try {
    const card = page.getByTestId('account-signature');
    await expect(card).toContainText('尚未上传签名');
    const input = card.locator('input[type=file]');
    await input.setInputFiles({ name: 'note.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await expect(toast(page)).toContainText('签名须为完整的 PNG 或 JPEG 图片');
    await expect(card).toContainText('尚未上传签名');
    await input.setInputFiles({ name: 'signature.png', mimeType: 'image/png', buffer: signaturePNG() });
    await expect(toast(page)).toContainText('签名已保存');
    await expect(page.getByTestId('account-signature-image')).toBeVisible();
    const out = path.resolve(__dirname, '..', 'artifacts', 'screens');
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, 'zh-CN-1440x900-account-signature.png'), fullPage: true });

    const c = await publishedCase({ patient: '周雅琴', diagnosis: { opinion: '（胃窦）慢性浅表性胃炎。' } });
    const pdf = await reportPDF(await apiLogin('site'), c.id);
    expect(pdf.includes('/Subtype /Image')).toBe(true);
  } finally {
    await call('DELETE', '/api/user/signature', { token: expert });
  }
});
