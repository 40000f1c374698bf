import { cardsBelow, listRowStyles, tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  listRowStyles,
  // Each customer a small card in a container narrower than its seven columns need (about 740 px).
  cardsBelow(760),
];
