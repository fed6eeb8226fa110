// Small helpers for antd widgets and forms.
import { expect, type Locator, type Page } from '@playwright/test';
import { escapeRegExp } from './ui';

/**
 * The form item (label + control + messages) whose label reads `label`, inside `scope`.
 * Found through the visible label rather than <label for>, because the list's search form
 * and the drawer form reuse the same element ids (see the report), which breaks getByLabel.
 */
export function formItem(scope: Locator, label: string): Locator {
  const exact = new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`);
  return scope.locator('.ant-form-item').filter({ has: scope.page().locator('.ant-form-item-label label').filter({ hasText: exact }) });
}

/** The text input (or textarea / number input) of a form item. */
export const input = (scope: Locator, label: string) => formItem(scope, label).locator('input, textarea').first();

/**
 * Opens a Select (by its form label inside `scope`) and picks the option with this text.
 * A searchable Select gets the text typed first: its list is virtual and renders only
 * the options in view.
 */
export async function pickOption(page: Page, scope: Locator, label: string, option: string) {
  const item = formItem(scope, label);
  await item.locator('.ant-select-selector').click();
  const search = item.locator('input.ant-select-selection-search-input');
  if ((await search.count()) && (await search.getAttribute('readonly')) === null) await page.keyboard.type(option);
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await dropdown.locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${escapeRegExp(option)}$`) }).click();
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();
}

/** The validation messages shown under a form's fields. */
export const fieldError = (scope: Locator, text: string | RegExp) => scope.locator('.ant-form-item-explain-error').filter({ hasText: text });
