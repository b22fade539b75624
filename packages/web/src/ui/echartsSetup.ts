import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerCharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the dashboards draw with (bars, lines, axes, tooltip, legend on a canvas),
 * registered once. Only EChart.tsx imports this file, and only dynamically: ECharts lands in a
 * chunk of its own, loaded the first time a chart shows, never in the main bundle.
 */
registerCharts([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { init };
