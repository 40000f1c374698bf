import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { ChartData } from '../src/shared/chart/chart-data.ts';

interface Args {
  data?: ChartData;
  label: string;
  theme?: 'light' | 'dark';
  emptyMessage?: string;
}

const months = ['Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar'];
const integers = new Intl.NumberFormat('en-GB');

/**
 * The chart host every element draws with: ECharts loaded on first draw, coloured from the
 * `--ops-*` tokens, and always paired with its data table ("Show data table").
 */
const meta: Meta<Args> = {
  title: 'Internals/ops-chart',
  component: 'ops-chart',
  args: { label: 'Requests per month' },
  render: (args) =>
    html`<ops-chart
      .data=${args.data}
      .formatValue=${(value: number) => integers.format(value)}
      label=${args.label}
      theme=${ifDefined(args.theme)}
      empty-message=${ifDefined(args.emptyMessage)}
    ></ops-chart>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Line: Story = {
  args: {
    data: {
      type: 'line',
      categories: months,
      series: [
        { name: 'This year', values: [102_400, 118_900, 131_200, 127_800, 140_300, 152_600] },
        { name: 'Last year', values: [88_100, 93_400, 99_800, 101_200, 109_900, 115_300] },
      ],
    },
  },
};

export const Bar: Story = {
  args: {
    label: 'Errors per month',
    data: { type: 'bar', categories: months, series: [{ name: 'Errors', values: [412, 388, 1_204, 530, 497, 451] }] },
  },
};

export const Pie: Story = {
  args: {
    label: 'Requests by endpoint',
    data: { type: 'pie', categories: ['/messages', '/webhooks', '/customers', 'Other'], series: [{ name: 'Share', values: [48, 27, 15, 10] }] },
  },
};

/** Every value zero: the message replaces the chart instead of a flat, empty drawing. */
export const Empty: Story = {
  args: {
    data: { type: 'line', categories: months, series: [{ name: 'Requests', values: [0, 0, 0, 0, 0, 0] }] },
    emptyMessage: 'No data for this period yet.',
  },
};

export const Dark: Story = { ...Line, args: { ...Line.args, theme: 'dark' }, globals: { theme: 'dark' } };
