/*
 * Inventory: stock levels, reorder rules and a restock report for a small warehouse.
 *
 * Design notes
 *
 * This module keeps the stock levels of a small warehouse and decides
 * when an item must be reordered. It is deliberately written as one file
 * so that it can serve as a teaching sample for code chunking: the long
 * comment you are reading now is far larger than one chunk, so the
 * chunker cannot keep it whole and has to cut it between lines.
 *
 * Stock is counted per item and per bin. An item is identified by its
 * SKU, a short code made of three letters and a number. A bin is a shelf
 * position such as A07. The same item may sit in several bins; the total
 * on hand is the sum over its bins. Counts never go below zero: a pick
 * that asks for more than a bin holds takes what is there and reports the
 * shortfall, so that the caller can try the next bin.
 *
 * Every item has a reorder point. When the quantity on hand falls to or
 * below it, the item is due for restocking. The quantity to order is
 * chosen so that, after delivery, stock reaches twice the reorder point,
 * rounded up to the supplier's pack size. Items marked as discontinued
 * are never reordered, even when they run out; they are listed in the
 * report so that someone can clear their bins.
 *
 * The restock report walks every item once, in SKU order. It groups the
 * items by the first letter of their bin (the aisle), because the person
 * doing the restock walks the aisles in that order. For each aisle it
 * prints the items to reorder, the quantity, and the bins to refill, and
 * it ends with totals: the number of lines, the units ordered and the
 * estimated cost at the last known unit price.
 *
 * The seed catalog below comes from the supplier as one minified line.
 * It is kept verbatim on purpose: a line that long cannot be cut between
 * statements or even between lines, so a chunker has to fall back to
 * cutting it at character boundaries, and a good one says so.
 *
 * Prices are held in cents as whole numbers, never as floating point, so
 * that totals add up exactly. Dates are calendar dates without a time of
 * day; the report is meant to be printed once every morning, before the
 * first delivery arrives, and compared with the previous day's copy.
 *
 * Nothing here talks to a database or the network. The functions take
 * plain values and return plain values, which keeps them easy to test:
 * build a few items, put them in bins, run the report, and compare the
 * text with what you expect. The only state is the stock table itself.
 */

// The supplier's seed catalog, kept exactly as it arrives: one minified line.
export const SEED_CATALOG = '{"version":3,"warehouse":"north","items":[{"sku":"BOL-1000","name":"bolt M3","qty":331,"min":25,"bin":"A26"},{"sku":"NUT-1001","name":"nut M4","qty":666,"min":10,"bin":"B05"},{"sku":"WAS-1002","name":"washer M5","qty":840,"min":10,"bin":"C24"},{"sku":"SCR-1003","name":"screw M6","qty":596,"min":10,"bin":"D33"},{"sku":"HIN-1004","name":"hinge M8","qty":219,"min":10,"bin":"E06"},{"sku":"BRA-1005","name":"bracket M10","qty":444,"min":100,"bin":"F05"},{"sku":"SPR-1006","name":"spring M3","qty":246,"min":10,"bin":"G36"},{"sku":"GEA-1007","name":"gear M4","qty":434,"min":10,"bin":"H37"},{"sku":"PUL-1008","name":"pulley M5","qty":126,"min":25,"bin":"A38"},{"sku":"RIV-1009","name":"rivet M6","qty":63,"min":100,"bin":"B04"},{"sku":"CLA-1010","name":"clamp M8","qty":226,"min":10,"bin":"C36"},{"sku":"VAL-1011","name":"valve M10","qty":879,"min":25,"bin":"D19"},{"sku":"BOL-1012","name":"bolt M3","qty":429,"min":25,"bin":"E35"},{"sku":"NUT-1013","name":"nut M4","qty":120,"min":50,"bin":"F36"},{"sku":"WAS-1014","name":"washer M5","qty":835,"min":25,"bin":"G07"},{"sku":"SCR-1015","name":"screw M6","qty":595,"min":25,"bin":"H24"},{"sku":"HIN-1016","name":"hinge M8","qty":99,"min":10,"bin":"A37"},{"sku":"BRA-1017","name":"bracket M10","qty":61,"min":25,"bin":"B32"},{"sku":"SPR-1018","name":"spring M3","qty":696,"min":100,"bin":"C21"},{"sku":"GEA-1019","name":"gear M4","qty":476,"min":100,"bin":"D24"},{"sku":"PUL-1020","name":"pulley M5","qty":306,"min":25,"bin":"E12"},{"sku":"RIV-1021","name":"rivet M6","qty":715,"min":25,"bin":"F06"},{"sku":"CLA-1022","name":"clamp M8","qty":588,"min":50,"bin":"G34"},{"sku":"VAL-1023","name":"valve M10","qty":506,"min":50,"bin":"H29"},{"sku":"BOL-1024","name":"bolt M3","qty":294,"min":10,"bin":"A08"},{"sku":"NUT-1025","name":"nut M4","qty":524,"min":100,"bin":"B11"},{"sku":"WAS-1026","name":"washer M5","qty":775,"min":50,"bin":"C10"},{"sku":"SCR-1027","name":"screw M6","qty":500,"min":100,"bin":"D03"},{"sku":"HIN-1028","name":"hinge M8","qty":684,"min":10,"bin":"E36"},{"sku":"BRA-1029","name":"bracket M10","qty":586,"min":50,"bin":"F22"},{"sku":"SPR-1030","name":"spring M3","qty":711,"min":50,"bin":"G39"},{"sku":"GEA-1031","name":"gear M4","qty":508,"min":100,"bin":"H05"},{"sku":"PUL-1032","name":"pulley M5","qty":860,"min":10,"bin":"A18"},{"sku":"RIV-1033","name":"rivet M6","qty":485,"min":10,"bin":"B04"},{"sku":"CLA-1034","name":"clamp M8","qty":748,"min":50,"bin":"C37"},{"sku":"VAL-1035","name":"valve M10","qty":697,"min":100,"bin":"D19"},{"sku":"BOL-1036","name":"bolt M3","qty":733,"min":100,"bin":"E23"},{"sku":"NUT-1037","name":"nut M4","qty":23,"min":100,"bin":"F23"},{"sku":"WAS-1038","name":"washer M5","qty":172,"min":10,"bin":"G32"},{"sku":"SCR-1039","name":"screw M6","qty":60,"min":25,"bin":"H19"},{"sku":"HIN-1040","name":"hinge M8","qty":132,"min":25,"bin":"A26"},{"sku":"BRA-1041","name":"bracket M10","qty":400,"min":100,"bin":"B06"},{"sku":"SPR-1042","name":"spring M3","qty":170,"min":100,"bin":"C26"},{"sku":"GEA-1043","name":"gear M4","qty":562,"min":50,"bin":"D09"}]}';

const PACK_SIZES = { BOL: 100, NUT: 100, WAS: 200, SCR: 100, HIN: 10, BRA: 20 };

/**
 * A stock-keeping unit: one kind of item the warehouse holds.
 * Frozen, so an item can be shared between reports.
 */
export class Item {
  constructor(sku, name, reorderAt = 10, unitCents = 0, discontinued = false) {
    Object.assign(this, { sku, name, reorderAt, unitCents, discontinued });
    Object.freeze(this);
  }

  label() {
    return `${this.sku} ${this.name}`;
  }
}

/** Quantities on hand, per item and per bin. */
export class Stock {
  bins = new Map();

  put(sku, bin, quantity) {
    const held = this.binsOf(sku);
    held.set(bin, (held.get(bin) ?? 0) + quantity);
  }

  /** Takes up to `quantity` from one bin; returns the shortfall. */
  pick(sku, bin, quantity) {
    const held = this.binsOf(sku);
    const taken = Math.min(held.get(bin) ?? 0, quantity);
    held.set(bin, (held.get(bin) ?? 0) - taken);
    return quantity - taken;
  }

  onHand(sku) {
    let total = 0;
    for (const quantity of this.binsOf(sku).values()) total += quantity;
    return total;
  }

  binsOf(sku) {
    if (!this.bins.has(sku)) this.bins.set(sku, new Map());
    return this.bins.get(sku);
  }
}

/** Items and opening stock from the supplier's catalog. */
export function loadCatalog(text = SEED_CATALOG) {
  const data = JSON.parse(text);
  const items = [];
  const stock = new Stock();
  for (const entry of data.items) {
    items.push(new Item(entry.sku, entry.name, entry.min));
    stock.put(entry.sku, entry.bin, entry.qty);
  }
  return [items, stock];
}

// Rounds up to whole packs: suppliers do not split a pack.
export function orderQuantity(item, onHand) {
  const wanted = Math.max(0, 2 * item.reorderAt - onHand);
  const pack = PACK_SIZES[item.sku.slice(0, 3)] ?? 1;
  return Math.ceil(wanted / pack) * pack;
}

/**
 * The morning restock report: what to order, aisle by aisle, with totals.
 * `previous` maps SKUs to yesterday's ordered quantities, so that an item
 * ordered yesterday and not yet delivered is not ordered twice.
 */
export function restockReport(items, stock, today, previous = new Map()) {
  const aisles = new Map();
  const discontinuedEmpty = [];
  const pending = [];
  const sorted = [...items].sort((a, b) => a.sku.localeCompare(b.sku));
  for (const item of sorted) {
    const onHand = stock.onHand(item.sku);
    if (item.discontinued) {
      if (onHand === 0) discontinuedEmpty.push(item);
      continue;
    }
    if (onHand > item.reorderAt) continue;
    const already = previous.get(item.sku) ?? 0;
    if (already > 0) {
      pending.push([item, already]);
      continue;
    }
    const quantity = orderQuantity(item, onHand);
    if (quantity === 0) continue;
    const bins = [...stock.binsOf(item.sku).entries()]
      .filter(([, held]) => held <= item.reorderAt)
      .map(([bin]) => bin)
      .sort();
    const aisle = bins.length > 0 ? bins[0][0] : "?";
    const rows = aisles.get(aisle) ?? [];
    rows.push({ item, onHand, quantity, bins });
    aisles.set(aisle, rows);
  }

  const lines = [`Restock report for ${today}`, "=".repeat(40), ""];
  let totalLines = 0;
  let totalUnits = 0;
  let totalCents = 0;
  for (const aisle of [...aisles.keys()].sort()) {
    const rows = aisles.get(aisle) ?? [];
    lines.push(`Aisle ${aisle} (${rows.length} items)`);
    for (const { item, onHand, quantity, bins } of rows) {
      const cost = quantity * item.unitCents;
      const where = bins.length > 0 ? bins.join(", ") : "no bin yet";
      lines.push(`  ${item.label().padEnd(24)} on hand ${String(onHand).padStart(5)}  order ${String(quantity).padStart(5)}  bins ${where}`);
      if (cost > 0) {
        lines.push(`  ${"".padEnd(24)} cost ${money(cost).padStart(11)}`);
      }
      totalLines += 1;
      totalUnits += quantity;
      totalCents += cost;
    }
    lines.push("");
  }

  if (pending.length > 0) {
    lines.push("Ordered yesterday, not yet delivered:");
    for (const [item, quantity] of pending) {
      lines.push(`  ${item.label().padEnd(24)} ${String(quantity).padStart(5)} units`);
    }
    lines.push("");
  }

  if (discontinuedEmpty.length > 0) {
    lines.push("Discontinued and empty (clear these bins):");
    for (const item of discontinuedEmpty) {
      const emptyBins = [...stock.binsOf(item.sku).keys()].sort();
      lines.push(`  ${item.label().padEnd(24)} bins ${emptyBins.join(", ") || "-"}`);
    }
    lines.push("");
  }

  lines.push("-".repeat(40));
  lines.push(`Lines: ${totalLines}   Units: ${totalUnits}   Cost: ${money(totalCents)}`);
  if (totalLines === 0) lines.push("Nothing to order today.");
  return lines.join("\n") + "\n";
}

function money(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
