// The image gallery and its annotation editor as an expert uses them: the
// case's image attachments as thumbnails, the viewer (keyboard navigation),
// the full-screen editor — crop with overwrite confirmation, three drawing
// tools with the label form, save as a new image — and the new image checked
// for the report, which prints it. Then the screens in the screenshot
// languages and sizes, with axe-core checks.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../lib/test';
import { apiLogin, baseURL, ok, unique } from '../lib/api';
import { bindExpert, caseFixture, diagnose, publish, reportPDF, submittedCase, userId } from '../lib/cases';
import { settled, signInWithToken, resize, AXE_SIZE, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'gallery');

async function axe(page: Page, name: string, include: string) {
  await expectAccessible(page, name, include);
}

/** A photo-like PNG drawn in the browser (tissue-pink blobs on a pale ground). */
async function drawPhoto(page: Page, w: number, h: number, seed: number): Promise<Buffer> {
  const b64 = await page.evaluate(
    ({ w, h, seed }) => {
      const c = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas') as HTMLCanvasElement;
      c.width = w;
      c.height = h;
      const ctx = c.getContext('2d')!;
      ctx.fillStyle = '#f6eef2';
      ctx.fillRect(0, 0, w, h);
      for (let i = 0; i < 40; i++) {
        const x = ((i * 97 + seed * 31) % w), y = ((i * 53 + seed * 17) % h), r = 20 + ((i * 7 + seed) % 40);
        ctx.fillStyle = i % 3 ? 'rgba(186, 85, 140, 0.35)' : 'rgba(90, 60, 160, 0.45)';
        ctx.beginPath();
        ctx.ellipse(x, y, r, r * 0.7, i, 0, Math.PI * 2);
        ctx.fill();
      }
      return c.toDataURL('image/png').split(',')[1];
    },
    { w, h, seed },
  );
  return Buffer.from(b64, 'base64');
}

async function uploadImage(token: string, data: Buffer, name: string): Promise<number> {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
  const res = await fetch(baseURL() + '/api/common/upload', { method: 'POST', body: fd, headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`upload → ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

interface GalleryItem { id: number; name: string; check: boolean; edited: boolean; labels: { tool: string }[] }

/** Drags on the editor canvas from one point to another (fractions of its size). */
async function dragOnCanvas(page: Page, from: [number, number], to: [number, number]) {
  const box = (await page.getByTestId('editor-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from[0] + to[0]) / 2), box.y + box.height * ((from[1] + to[1]) / 2), { steps: 4 });
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 4 });
  await page.mouse.up();
}

/** Fills the label form that opens after a shape is drawn and saves it. */
async function saveLabel(page: Page, description: string) {
  const form = page.getByRole('dialog').filter({ has: page.getByTestId('label-save') });
  await expect(form).toBeVisible();
  await form.getByLabel(/^(描述|Description)$/).fill(description);
  const saved = page.waitForResponse((r) => /\/api\/gallery\/\d+\/\d+\/labels$/.test(r.url()) && r.request().method() === 'PUT');
  await page.getByTestId('label-save').click();
  expect((await saved).status()).toBe(200);
  await expect(form).toBeHidden();
}

test('an expert annotates a case image, crops it, saves it as a new image and checks it for the report', async ({ page }) => {
  test.setTimeout(240_000);
  const site = await apiLogin('site');
  await page.goto(baseURL() + '/favicon.svg');
  const gross = await uploadImage(site, await drawPhoto(page, 900, 600, 1), `${unique('gross')}.png`);
  const micro = await uploadImage(site, await drawPhoto(page, 800, 600, 2), `${unique('micro')}.png`);
  const c = await submittedCase(site, await caseFixture(site), { name: unique('图库'), attachments: [{ file_id: gross, type: 6 }, { file_id: micro, type: 6 }] });
  await bindExpert(await apiLogin('allocator'), c.id, await userId('expert'));
  const expert = await apiLogin('expert');

  // The site's registration form shows the images as a gallery too: thumbnails and the viewer, and no
  // delete once the case is submitted (the form is read-only).
  await signInWithToken(page, 'site', { lang: 'zh-CN', to: `/case/register/${c.id}` });
  const formGallery = page.getByTestId('attachment-gallery');
  await expect(formGallery.getByRole('listitem')).toHaveCount(2);
  await expect(formGallery.locator('img').first()).toBeVisible();
  await expect(formGallery.getByRole('button', { name: /^删除/ })).toHaveCount(0);
  await formGallery.getByRole('button', { name: /^查看 micro/ }).click();
  await expect(page.locator('.ant-image-preview-progress')).toContainText('2 / 2');
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-image-preview')).toBeHidden();

  // The expert opens the case's files: the images are a gallery of server-made thumbnails.
  await signInWithToken(page, 'expert', { lang: 'zh-CN', to: `/diagnosis/item/${c.id}` });
  await page.getByRole('tab', { name: /切片与附件/ }).click();
  const gallery = page.getByTestId('gallery');
  await expect(gallery.getByRole('listitem')).toHaveCount(2);
  await expect(gallery.locator('img').first()).toBeVisible();
  const thumb = await gallery.locator('img').first().evaluate((i: HTMLImageElement) => Math.max(i.naturalWidth, i.naturalHeight));
  expect(thumb).toBe(320);

  // The viewer: open the first image, move to the second with the keyboard, close with Esc.
  await gallery.getByRole('button', { name: /^查看 gross/ }).click();
  const viewer = page.locator('.ant-image-preview');
  await expect(viewer).toBeVisible();
  await expect(page.locator('.ant-image-preview-progress')).toContainText('1 / 2');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.ant-image-preview-progress')).toContainText('2 / 2');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.ant-image-preview-progress')).toContainText('1 / 2');

  // The editor opens full screen from the viewer.
  await page.getByTestId('gallery-edit').click();
  await expect(viewer).toBeHidden();
  const canvas = page.getByTestId('editor-canvas');
  await expect(canvas).toBeVisible();

  // Crop: the frame starts central at half the size; saving asks before overwriting.
  await page.getByTestId('mode-crop').click();
  await expect(page.getByTestId('mode-bar')).toContainText('450 × 300');
  await page.getByTestId('mode-save').click();
  const rotated = page.waitForResponse((r) => r.url().endsWith('/api/rotate_image'));
  await page.getByTestId('gallery-overwrite-ok').click();
  expect((await rotated).status()).toBe(200);
  await expect(page.getByTestId('mode-bar')).toBeHidden();
  await expect(canvas).toHaveAttribute('data-size', '450x300');

  // Three tools: a rectangle, an arrow and a text note, each with the label form.
  await page.getByTestId('tool-rect').click();
  await dragOnCanvas(page, [0.2, 0.2], [0.55, 0.6]);
  await saveLabel(page, '病灶区域');
  await page.getByTestId('tool-arrow').click();
  await dragOnCanvas(page, [0.85, 0.85], [0.6, 0.6]);
  await saveLabel(page, '浸润前缘');
  await page.getByTestId('tool-font').click();
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.1);
  await saveLabel(page, '腺体异型');
  let items = (await ok<{ items: GalleryItem[] }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert)).items;
  expect(items[0]).toMatchObject({ id: gross, edited: true });
  expect(items[0].labels.map((l) => l.tool)).toEqual(['rect', 'arrow', 'font']);
  await expect(canvas).toHaveAttribute('aria-label', /3/);

  // By keyboard: 8 takes the rectangle, Enter places it at the centre, arrows move it, Shift+arrows resize
  // it, Delete removes it; each step is announced.
  const announce = page.getByTestId('editor-announce');
  await canvas.focus();
  await page.keyboard.press('8');
  await expect(page.getByTestId('tool-rect')).toHaveAttribute('aria-pressed', 'true');
  await expect(announce).toContainText('矩形');
  await page.keyboard.press('Enter');
  await saveLabel(page, '键盘标注');
  await expect(announce).toContainText('已放置并选中');
  await expect(canvas).toBeFocused();
  const keyed = () => ok<{ items: GalleryItem[] }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert).then((g) => g.items[0].labels as unknown as { points: number[] }[]);
  expect((await keyed())[3].points).toEqual([168.8, 112.5, 281.3, 187.5]);
  const moved1 = page.waitForResponse((r) => /\/labels$/.test(r.url()) && r.request().method() === 'PUT');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  expect((await moved1).status()).toBe(200);
  await expect(announce).toContainText('113 × 80');
  await expect.poll(async () => (await keyed())[3].points).toEqual([173.8, 112.5, 286.3, 192.5]);
  await page.keyboard.press('Delete');
  await expect(announce).toContainText('已删除');
  await expect(canvas).toHaveAttribute('aria-label', /3/);
  await expect.poll(async () => (await keyed()).length).toBe(3);

  // Adjust and save as a new image (JPEG), its labels carried over.
  await page.getByTestId('mode-process').click();
  const copied = page.waitForResponse((r) => /\/copy$/.test(r.url()));
  await page.getByTestId('mode-bar').getByRole('button', { name: /另存为新图片/ }).click();
  expect((await copied).status()).toBe(200);
  await expect(page.getByText('已另存为病例的新图片')).toBeVisible();
  await expect(canvas).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(canvas).toBeHidden();
  await expect(gallery.getByRole('listitem')).toHaveCount(3);
  items = (await ok<{ items: GalleryItem[] }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert)).items;
  const copy = items[2];
  expect(copy.name).toMatch(/-copy\.jpg$/);
  expect(copy.labels).toHaveLength(3);

  // Checked for the report: the report prints it.
  const arranged = page.waitForResponse((r) => r.url().endsWith(`/api/consultation/resources/${c.id}/gallery`) && r.request().method() === 'PUT');
  await page.getByTestId(`gallery-check-${copy.id}`).click();
  expect((await arranged).status()).toBe(200);
  await expect(page.getByTestId(`gallery-check-${copy.id}`)).toBeChecked();
  items = (await ok<{ items: GalleryItem[] }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert)).items;
  expect(items.filter((i) => i.check).map((i) => i.id)).toEqual([copy.id]);

  // Reorder by keyboard: the copy moves before the micro image.
  const moved = page.waitForResponse((r) => r.url().endsWith(`/gallery`) && r.request().method() === 'PUT');
  await page.getByTestId(`gallery-item-${copy.id}`).getByRole('button', { name: '前移' }).click();
  expect((await moved).status()).toBe(200);
  items = (await ok<{ items: GalleryItem[] }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert)).items;
  expect(items.map((i) => i.id)).toEqual([gross, copy.id, micro]);

  // The screens.
  for (const lang of SCREEN_LANGUAGES) {
    await signInWithToken(page, 'expert', { lang, to: `/diagnosis/item/${c.id}` });
    for (const size of SCREEN_SIZES) {
      const { width } = size;
      await resize(page, size);
      await page.goto(`/diagnosis/item/${c.id}`);
      await page.getByRole('tab', { name: /切片与附件|Slides & files/ }).click();
      await expect(gallery.locator('img')).toHaveCount(3);
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-gallery.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} gallery`, '[data-testid="gallery"]');
      await gallery.getByRole('listitem').nth(1).getByRole('button').first().click();
      await page.getByTestId('gallery-edit').click();
      await expect(canvas).toBeVisible();
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-editor.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} editor`, '.ant-modal-content');
      await page.getByTestId('tool-ellipse').click();
      await dragOnCanvas(page, [0.3, 0.3], [0.5, 0.5]);
      await expect(page.getByTestId('label-save')).toBeVisible();
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-label-form.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} label form`, '.ant-modal-content:has([data-testid="label-save"])');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('label-save')).toBeHidden();
      await page.getByRole('button', { name: /^(关闭|Close)$/ }).click();
      await expect(canvas).toBeHidden();
      await page.goto(`/attach/${copy.id}`);
      await expect(page.getByRole('img', { name: copy.name })).toBeVisible();
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${width}-attach.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} attach page`, 'main');
    }
  }

  // The registration form's gallery, as the site sees it.
  for (const lang of SCREEN_LANGUAGES) {
    await signInWithToken(page, 'site', { lang, to: `/case/register/${c.id}` });
    for (const size of SCREEN_SIZES) {
      await resize(page, size);
      await page.goto(`/case/register/${c.id}`);
      const tiles = page.getByTestId('attachment-gallery');
      await expect(tiles.locator('img')).toHaveCount(3);
      await tiles.scrollIntoViewIfNeeded();
      await settled(page);
      await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}-register-gallery.png`) });
      if (size === AXE_SIZE) await axe(page, `${lang} registration form gallery`, '[data-testid="attachment-gallery"]');
    }
  }

  // The expert signs: the report prints the checked image, and the gallery is read-only.
  await diagnose(expert, c.id, { opinion: '（胃窦）低级别上皮内瘤变。' });
  await publish(expert, c.id);
  const pdf = await reportPDF(expert, c.id);
  expect(pdf.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
  const after = await ok<{ editable: boolean }>('GET', `/api/consultation/resources/${c.id}/gallery`, expert);
  expect(after.editable).toBe(false);
});
