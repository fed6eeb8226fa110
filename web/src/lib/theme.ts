import type { ThemeConfig } from 'antd';

/** A calm medical blue with comfortable admin density. */
export function makeTheme(fontSize: number, reducedMotion = false): ThemeConfig {
  return {
    token: {
      motion: !reducedMotion,
      colorPrimary: '#1f6fc5',
      colorInfo: '#1f6fc5',
      colorSuccess: '#2e9d5b',
      colorWarning: '#d48806',
      colorError: '#d4380d',
      borderRadius: 6,
      fontSize,
      colorBgLayout: '#f3f6fa',
      // Secondary text dark enough for WCAG AA contrast (4.5:1) on white and on the layout grey.
      colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
      colorTextDescription: 'rgba(0, 0, 0, 0.62)',
      colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
    },
    components: {
      Layout: { siderBg: '#0f2a47', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 20px' },
      Menu: { darkItemBg: '#0f2a47', darkSubMenuItemBg: '#0b223b', darkItemSelectedBg: '#1f6fc5' },
      Table: { headerBg: '#f5f8fc' },
      Descriptions: { labelColor: 'rgba(0, 0, 0, 0.62)' },
    },
  };
}
