/** The pie series with its tooltip: loaded with the chart chunk for a share chart. */
import { PieChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';

use([PieChart, TooltipComponent]);
