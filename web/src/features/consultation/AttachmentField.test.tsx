import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { renderAt } from '../../test/render';
import { AttachmentField, FULL_BODY, type AttachmentValue } from './AttachmentField';

/** Thumbnails come from the files domain: a stub answering every image request. */
function stubImages() {
  const fetch = vi.fn(async (_url: string) => new Response('jpeg', { status: 200, headers: { 'Content-Type': 'image/jpeg' } }));
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:thumb', revokeObjectURL: () => undefined }));
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

const files: AttachmentValue[] = [
  { file_id: 1, type: FULL_BODY, filename: '全身像.jpg', size: 10 },
  { file_id: 2, type: 6, filename: '大体.png', size: 20 },
  { file_id: 3, type: 2, filename: '申请单.pdf', size: 30 },
];

describe('attachment field', () => {
  it('offers no second full-body image and says why', async () => {
    stubImages();
    renderAt(<AttachmentField value={[files[0]!]} />, '/', '/');
    // The "upload as" type of the next file.
    const next = (await screen.findAllByRole('combobox'))[0];
    fireEvent.mouseDown(next);
    const option = await screen.findByTitle('全身像 · 全身像只能上传一张');
    expect(option.closest('.ant-select-item-option')).toHaveClass('ant-select-item-option-disabled');
    // The image that is the full-body image keeps its own type selectable.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '附件类型 全身像.jpg' }));
    const own = (await screen.findAllByTitle('全身像')).map((o) => o.closest('.ant-select-item-option'));
    expect(own.some((o) => o && !o.classList.contains('ant-select-item-option-disabled'))).toBe(true);
  });

  it('shows the images as a gallery of server-made thumbnails, the other files as a list, and deletes an image', async () => {
    const fetch = stubImages();
    const changed = vi.fn();
    renderAt(<AttachmentField value={files} onChange={changed} />, '/', '/');
    const gallery = screen.getByTestId('attachment-gallery');
    expect(within(gallery).getAllByRole('listitem')).toHaveLength(2);
    expect(within(gallery).getByRole('button', { name: '查看 大体.png' })).toBeTruthy();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(within(gallery).getByRole('img', { name: '大体.png' })).toBeTruthy());
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(expect.arrayContaining(['/api/files/1/thumb', '/api/files/2/thumb']));
    expect(within(screen.getByRole('table')).getByText('申请单.pdf')).toBeTruthy();
    expect(within(screen.getByRole('table')).queryByText('大体.png')).toBeNull();
    fireEvent.click(within(gallery).getByRole('button', { name: '删除 大体.png' }));
    await waitFor(() => expect(document.querySelector('.ant-popconfirm')).toBeTruthy());
    fireEvent.click(within(document.querySelector<HTMLElement>('.ant-popconfirm')!).getByRole('button', { name: /^删\s*除$/ }));
    expect(changed).toHaveBeenLastCalledWith([files[0], files[2]]);
  });

  it('read-only, the gallery offers no delete', async () => {
    stubImages();
    renderAt(
      <Form disabled>
        <AttachmentField value={files} />
      </Form>,
      '/',
      '/',
    );
    const gallery = screen.getByTestId('attachment-gallery');
    expect(within(gallery).getByRole('button', { name: '查看 全身像.jpg' })).toBeTruthy();
    expect(within(gallery).queryByRole('button', { name: /^删除/ })).toBeNull();
    // The type reads as text, not as a disabled control.
    expect(within(gallery).queryByRole('combobox')).toBeNull();
    expect(within(gallery).getByText('全身像')).toBeTruthy();
  });
});
