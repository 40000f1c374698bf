import { cardsBelow, listRowStyles, tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  listRowStyles,
  // Each webhook a small card in a container narrower than its six columns need (about 660 px).
  cardsBelow(680),
];
