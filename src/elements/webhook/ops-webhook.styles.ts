import { detailStyles } from '../../shared/detail.ts';

/** The webhook page is laid out entirely by the shared detail styles. */
export const styles = [detailStyles];
