// echarts, with only the charts and components the pages use (the bundle stays small), and a
// component that owns one chart instance sized to its box and themed with the page.
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, LineChart } from 'echarts/charts';
import { AriaComponent, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent,
         TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'preact/hooks';
import { useStore } from '../store/store';

echarts.use([BarChart, CustomChart, LineChart, AriaComponent, DataZoomComponent, GridComponent, LegendComponent,
             MarkLineComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;
export { echarts };

export function Chart({ option, height = 280, label, onItemClick }:
  { option: ChartOption; height?: number; label: string; onItemClick?: (dataIndex: number) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const clicked = useRef(onItemClick);
  clicked.current = onItemClick;
  const chart = useRef<echarts.ECharts | null>(null);
  const theme = useStore((s) => s.theme);

  useEffect(() => {
    if (!box.current) return undefined;
    const instance = echarts.init(box.current, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('click', (params: { dataIndex?: number }) => {
      if (params.dataIndex !== undefined) clicked.current?.(params.dataIndex);
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => { observer.disconnect(); instance.dispose(); chart.current = null; };
  }, [theme]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', aria: { enabled: true }, animation: false, ...option },
                             true);
  }, [option, theme]);

  return <div ref={box} class="chart" style={{ height: `${height}px` }} role="img" aria-label={label} />;
}
