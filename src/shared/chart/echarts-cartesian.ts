/** The line and bar series on a grid, with their tooltip: loaded with the chart chunk for a time chart. */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';

use([LineChart, BarChart, GridComponent, TooltipComponent]);
