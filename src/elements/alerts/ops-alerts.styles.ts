import { cardsBelow, listRowStyles, tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  listRowStyles,
  // Each alert a small card in a container narrower than its seven columns need.
  cardsBelow(760),
];
