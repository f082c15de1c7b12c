// echarts, as the dashboard's charts use it: the core, the four chart types and the three components they need,
// drawn on canvas. Only EChart.tsx imports this module, and only dynamically, so echarts is a chunk of its own
// that loads after the page has painted; the login page and the shell never carry it.
import { BarChart, FunnelChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([
  LineChart,
  BarChart,
  PieChart,
  FunnelChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  CanvasRenderer,
]);

export { init };
