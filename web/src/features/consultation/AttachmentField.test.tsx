import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { AttachmentField, FULL_BODY } from './AttachmentField';

describe('attachment field', () => {
  it('offers no second full-body image and says why', async () => {
    renderAt(<AttachmentField value={[{ file_id: 1, type: FULL_BODY, filename: '全身像.jpg', size: 10 }]} />, '/', '/');
    // The "upload as" type of the next file.
    const next = (await screen.findAllByRole('combobox'))[0];
    fireEvent.mouseDown(next);
    const option = await screen.findByTitle('全身像 · 全身像只能上传一张');
    expect(option.closest('.ant-select-item-option')).toHaveClass('ant-select-item-option-disabled');
    // The row that is the full-body image keeps its own type selectable.
    const rowSelect = within(screen.getByRole('table')).getByRole('combobox');
    fireEvent.mouseDown(rowSelect);
    const own = (await screen.findAllByTitle('全身像')).map((o) => o.closest('.ant-select-item-option'));
    expect(own.some((o) => o && !o.classList.contains('ant-select-item-option-disabled'))).toBe(true);
  });
});
