// The clinical and uploader roles (spec 1 §2 Other roles): a clinician
// registers a consultation request for their patient with what they know; the
// hospital's site staff complete, charge and submit it; once the report is
// published the clinician finds it on /case/clinical with its PDF. The
// hospital's uploader follows a case's slides on /case/uploader. Screenshots in the
// SCREEN_LANGUAGES and SCREEN_SIZES pattern and an accessibility check (axe-core).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../lib/test';
import { apiLogin, call, list, ok, unique, type Lang } from '../lib/api';
import { formItem } from '../lib/antd';
import { bindExpert, caseFixture, chargeCase, diagnose, nextNumber, publish, registerCase, registration, submitCase, tinySlide, uploadSlide, userId } from '../lib/cases';
import { resize, searchList, settled, signInWithToken, switchLanguage, toast, SCREEN_LANGUAGES, SCREEN_SIZES } from '../lib/ui';
import { expectAccessible } from '../lib/axe';

const OUT = path.resolve(__dirname, '..', 'artifacts', 'screens');

async function shootAndCheck(page: Page, lang: Lang, name: string) {
  mkdirSync(OUT, { recursive: true });
  for (const size of SCREEN_SIZES) {
    await resize(page, size);
    await settled(page);
    await page.screenshot({ path: path.join(OUT, `${lang}-${size.width}x${size.height}-${name}.png`) });
  }
  await expectAccessible(page, name);
}

test('a clinician registers a request, the site completes and sends it, and the clinician finds the published report', async ({ page }) => {
  // Four roles and four screens photographed: minutes on a busy CI machine.
  test.setTimeout(300_000);
  const patient = unique('临床');
  await signInWithToken(page, 'clinical', { to: '/case/clinical' });
  await page.getByTestId('case-register').click();
  const form = page.getByTestId('case-register-form');
  await expect(form).toBeVisible();
  // What a clinician knows: no pathology number, library, slides or charge.
  await expect(formItem(form, '病理号')).toHaveCount(0);
  await expect(page.getByTestId('save-charge')).toHaveCount(0);
  await formItem(form, '患者姓名').locator('input').fill(patient);
  await formItem(form, '性别').getByText('女').click();
  await page.getByTestId('age-input').fill('52');
  await formItem(form, '病史摘要').locator('textarea').fill('上腹部不适三月，胃镜见胃窦溃疡。');
  await formItem(form, '会诊目的').locator('textarea').fill('请明确良恶性。');
  await page.getByTestId('specimen-name-0').fill('胃窦活检');
  for (const lang of SCREEN_LANGUAGES) {
    if (lang !== 'zh-CN') await switchLanguage(page, lang);
    await shootAndCheck(page, lang, 'clinical-register');
    if (lang !== 'zh-CN') await switchLanguage(page, 'zh-CN');
  }
  await page.getByTestId('clinical-send').click();
  await expect(toast(page)).toContainText('申请已发送至本院病理科');
  await expect(page).toHaveURL(/\/case\/clinical$/);
  await searchList(page, patient);
  const row = page.locator('main .ant-table-row').filter({ hasText: patient });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: '收费' })).toHaveCount(0);

  // The site finds the request among its hospital's cases, completes, charges and sends it.
  const site = await apiLogin('site');
  const f = await caseFixture(site);
  const found = await list<{ id: number; patient_name: string }>(site, '/api/consultation/list', { search: patient });
  expect(found.data.map((c) => c.patient_name)).toEqual([patient]);
  const id = found.data[0].id;
  const slide = await uploadSlide(site, tinySlide(), `${patient}.svs`);
  for (let attempt = 0; ; attempt++) {
    const body = registration(f, await nextNumber(site, f.libraryId), { name: patient, slide_ids: [slide], consult_purpose: '请明确良恶性。' });
    const r = await call('POST', `/api/consultation/${id}`, { token: site, body });
    if (r.status < 300) break;
    if (attempt >= 5) throw new Error(`complete → ${r.status}: ${JSON.stringify(r.body)}`);
  }
  await chargeCase(site, id, f.chargeItemId);
  await submitCase(site, id);
  // The clinician can no longer change it.
  const clin = await apiLogin('clinical');
  expect((await call('POST', `/api/consultation/draft/${id}`, { token: clin, body: { name: '改名' } })).status).toBe(409);
  await bindExpert(await apiLogin('allocator'), id, await userId('expert'));
  const expert = await apiLogin('expert');
  await diagnose(expert, id, { opinion: '（胃窦）慢性浅表性胃炎伴糜烂。' });
  await publish(expert, id);
  await ok('POST', `/api/consultation/resources/${id}/message`, expert, { content: '报告已发布，请查收。' });

  await page.reload();
  await searchList(page, patient);
  await expect(row).toContainText('已发布');
  await expect(page.getByTestId(`case-report-${id}`)).toBeVisible();
  const pdf = await call('GET', `/api/diagnosis/report/preview/${id}`, { token: clin });
  expect(pdf.status).toBe(200);
  await page.getByTestId(`case-view-${id}`).click();
  const drawer = page.getByTestId('case-detail-drawer');
  await drawer.getByRole('tab', { name: /留言/ }).click();
  await expect(drawer).toContainText('报告已发布，请查收。');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  for (const lang of SCREEN_LANGUAGES) {
    if (lang !== 'zh-CN') await switchLanguage(page, lang);
    await shootAndCheck(page, lang, 'case-clinical');
    if (lang !== 'zh-CN') await switchLanguage(page, 'zh-CN');
  }

  // The hospital's uploader registers a case with a slide and follows the slide on /case/uploader.
  const uploader = await apiLogin('uploader');
  const scan = unique('上传');
  const withSlide = await registerCase(uploader, f, { name: scan });
  await signInWithToken(page, 'uploader', { lang: 'zh-CN', to: '/case/uploader' });
  await searchList(page, scan);
  const upRow = page.locator('main .ant-table-row').filter({ hasText: scan });
  await expect(upRow).toHaveCount(1);
  await expect(upRow.getByRole('button', { name: '收费' })).toBeVisible();
  await page.getByTestId(`case-slides-${withSlide.id}`).click();
  const slides = page.getByTestId('uploader-slides');
  await expect(slides).toContainText(`${withSlide.pathology_number}.svs`);
  await expect(slides).toContainText('已上传');
  for (const lang of SCREEN_LANGUAGES) {
    if (lang !== 'zh-CN') {
      await page.keyboard.press('Escape');
      await switchLanguage(page, lang);
      await page.getByTestId(`case-slides-${withSlide.id}`).click();
    }
    await shootAndCheck(page, lang, 'case-uploader');
  }

  // The administrator sees who administers what on /admin/manage.
  await signInWithToken(page, 'admin', { lang: 'zh-CN', to: '/admin/manage' });
  const ca = page.locator('main .ant-table-row').filter({ hasText: 'center_admin' });
  await expect(ca).toContainText('华东远程病理会诊中心');
  await expect(page.locator('main .ant-table-row').filter({ hasText: '系统管理员' })).toContainText('全部中心与医院');
  for (const lang of SCREEN_LANGUAGES) {
    if (lang !== 'zh-CN') await switchLanguage(page, lang);
    await shootAndCheck(page, lang, 'admin-manage');
  }
});
