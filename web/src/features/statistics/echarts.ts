// The parts of ECharts the statistics use, registered once; loaded on first
// chart so that no other page carries it.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GraphicComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, AriaComponent, GraphicComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, SVGRenderer]);

export const initChart = (el: HTMLElement, locale: string) => echarts.init(el, undefined, { renderer: 'svg', locale: locale === 'zh-CN' ? 'ZH' : 'EN' });
