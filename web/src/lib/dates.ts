import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import updateLocale from 'dayjs/plugin/updateLocale';
import type { Language } from './prefs';

dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 1 });
dayjs.updateLocale('zh-cn', { weekStart: 1 });

/** Dates follow the interface language (weeks start on Monday in both). */
export function setDateLocale(lang: Language) {
  dayjs.locale(lang === 'zh-CN' ? 'zh-cn' : 'en');
}
