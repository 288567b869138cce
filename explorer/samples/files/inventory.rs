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

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The supplier's seed catalog, kept exactly as it arrives: one minified line.
pub const SEED_CATALOG: &str = r#"{"version":3,"warehouse":"north","items":[{"sku":"BOL-1000","name":"bolt M3","qty":331,"min":25,"bin":"A26"},{"sku":"NUT-1001","name":"nut M4","qty":666,"min":10,"bin":"B05"},{"sku":"WAS-1002","name":"washer M5","qty":840,"min":10,"bin":"C24"},{"sku":"SCR-1003","name":"screw M6","qty":596,"min":10,"bin":"D33"},{"sku":"HIN-1004","name":"hinge M8","qty":219,"min":10,"bin":"E06"},{"sku":"BRA-1005","name":"bracket M10","qty":444,"min":100,"bin":"F05"},{"sku":"SPR-1006","name":"spring M3","qty":246,"min":10,"bin":"G36"},{"sku":"GEA-1007","name":"gear M4","qty":434,"min":10,"bin":"H37"},{"sku":"PUL-1008","name":"pulley M5","qty":126,"min":25,"bin":"A38"},{"sku":"RIV-1009","name":"rivet M6","qty":63,"min":100,"bin":"B04"},{"sku":"CLA-1010","name":"clamp M8","qty":226,"min":10,"bin":"C36"},{"sku":"VAL-1011","name":"valve M10","qty":879,"min":25,"bin":"D19"},{"sku":"BOL-1012","name":"bolt M3","qty":429,"min":25,"bin":"E35"},{"sku":"NUT-1013","name":"nut M4","qty":120,"min":50,"bin":"F36"},{"sku":"WAS-1014","name":"washer M5","qty":835,"min":25,"bin":"G07"},{"sku":"SCR-1015","name":"screw M6","qty":595,"min":25,"bin":"H24"},{"sku":"HIN-1016","name":"hinge M8","qty":99,"min":10,"bin":"A37"},{"sku":"BRA-1017","name":"bracket M10","qty":61,"min":25,"bin":"B32"},{"sku":"SPR-1018","name":"spring M3","qty":696,"min":100,"bin":"C21"},{"sku":"GEA-1019","name":"gear M4","qty":476,"min":100,"bin":"D24"},{"sku":"PUL-1020","name":"pulley M5","qty":306,"min":25,"bin":"E12"},{"sku":"RIV-1021","name":"rivet M6","qty":715,"min":25,"bin":"F06"},{"sku":"CLA-1022","name":"clamp M8","qty":588,"min":50,"bin":"G34"},{"sku":"VAL-1023","name":"valve M10","qty":506,"min":50,"bin":"H29"},{"sku":"BOL-1024","name":"bolt M3","qty":294,"min":10,"bin":"A08"},{"sku":"NUT-1025","name":"nut M4","qty":524,"min":100,"bin":"B11"},{"sku":"WAS-1026","name":"washer M5","qty":775,"min":50,"bin":"C10"},{"sku":"SCR-1027","name":"screw M6","qty":500,"min":100,"bin":"D03"},{"sku":"HIN-1028","name":"hinge M8","qty":684,"min":10,"bin":"E36"},{"sku":"BRA-1029","name":"bracket M10","qty":586,"min":50,"bin":"F22"},{"sku":"SPR-1030","name":"spring M3","qty":711,"min":50,"bin":"G39"},{"sku":"GEA-1031","name":"gear M4","qty":508,"min":100,"bin":"H05"},{"sku":"PUL-1032","name":"pulley M5","qty":860,"min":10,"bin":"A18"},{"sku":"RIV-1033","name":"rivet M6","qty":485,"min":10,"bin":"B04"},{"sku":"CLA-1034","name":"clamp M8","qty":748,"min":50,"bin":"C37"},{"sku":"VAL-1035","name":"valve M10","qty":697,"min":100,"bin":"D19"},{"sku":"BOL-1036","name":"bolt M3","qty":733,"min":100,"bin":"E23"},{"sku":"NUT-1037","name":"nut M4","qty":23,"min":100,"bin":"F23"},{"sku":"WAS-1038","name":"washer M5","qty":172,"min":10,"bin":"G32"},{"sku":"SCR-1039","name":"screw M6","qty":60,"min":25,"bin":"H19"},{"sku":"HIN-1040","name":"hinge M8","qty":132,"min":25,"bin":"A26"},{"sku":"BRA-1041","name":"bracket M10","qty":400,"min":100,"bin":"B06"},{"sku":"SPR-1042","name":"spring M3","qty":170,"min":100,"bin":"C26"},{"sku":"GEA-1043","name":"gear M4","qty":562,"min":50,"bin":"D09"}]}"#;

const PACK_SIZES: [(&str, u32); 6] = [("BOL", 100), ("NUT", 100), ("WAS", 200), ("SCR", 100), ("HIN", 10), ("BRA", 20)];

/// A stock-keeping unit: one kind of item the warehouse holds.
/// Cloned freely: an item is a handful of small fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub sku: String,
    pub name: String,
    pub reorder_at: u32,
    pub unit_cents: u64,
    pub discontinued: bool,
}

impl Item {
    pub fn label(&self) -> String {
        format!("{} {}", self.sku, self.name)
    }
}

/// Quantities on hand, per item and per bin.
#[derive(Debug, Default)]
pub struct Stock {
    bins: HashMap<String, BTreeMap<String, u32>>,
}

impl Stock {
    pub fn put(&mut self, sku: &str, bin: &str, quantity: u32) {
        let held = self.bins.entry(sku.to_string()).or_default();
        *held.entry(bin.to_string()).or_insert(0) += quantity;
    }

    /// Takes up to `quantity` from one bin; returns the shortfall.
    pub fn pick(&mut self, sku: &str, bin: &str, quantity: u32) -> u32 {
        let held = self.bins.entry(sku.to_string()).or_default();
        let slot = held.entry(bin.to_string()).or_insert(0);
        let taken = (*slot).min(quantity);
        *slot -= taken;
        quantity - taken
    }

    pub fn on_hand(&self, sku: &str) -> u32 {
        self.bins.get(sku).map(|held| held.values().sum()).unwrap_or(0)
    }

    pub fn bins_of(&self, sku: &str) -> Vec<(&str, u32)> {
        match self.bins.get(sku) {
            Some(held) => held.iter().map(|(bin, quantity)| (bin.as_str(), *quantity)).collect(),
            None => Vec::new(),
        }
    }
}

// Rounds up to whole packs: suppliers do not split a pack.
pub fn order_quantity(item: &Item, on_hand: u32) -> u32 {
    let wanted = (2 * item.reorder_at).saturating_sub(on_hand);
    let prefix = &item.sku[..3.min(item.sku.len())];
    let pack = PACK_SIZES.iter().find(|(p, _)| *p == prefix).map(|(_, size)| *size).unwrap_or(1);
    (wanted + pack - 1) / pack * pack
}

struct Row<'a> {
    item: &'a Item,
    on_hand: u32,
    quantity: u32,
    bins: Vec<String>,
}

/// The morning restock report: what to order, aisle by aisle, with totals.
/// `previous` maps SKUs to yesterday's ordered quantities, so that an item
/// ordered yesterday and not yet delivered is not ordered twice.
pub fn restock_report(items: &[Item], stock: &Stock, today: &str, previous: &HashMap<String, u32>) -> String {
    let mut aisles: BTreeMap<char, Vec<Row>> = BTreeMap::new();
    let mut discontinued_empty: Vec<&Item> = Vec::new();
    let mut pending: Vec<(&Item, u32)> = Vec::new();
    let mut sorted: Vec<&Item> = items.iter().collect();
    sorted.sort_by(|a, b| a.sku.cmp(&b.sku));
    for item in sorted {
        let on_hand = stock.on_hand(&item.sku);
        if item.discontinued {
            if on_hand == 0 {
                discontinued_empty.push(item);
            }
            continue;
        }
        if on_hand > item.reorder_at {
            continue;
        }
        if let Some(&already) = previous.get(&item.sku) {
            if already > 0 {
                pending.push((item, already));
                continue;
            }
        }
        let quantity = order_quantity(item, on_hand);
        if quantity == 0 {
            continue;
        }
        let bins: Vec<String> = stock
            .bins_of(&item.sku)
            .into_iter()
            .filter(|(_, held)| *held <= item.reorder_at)
            .map(|(bin, _)| bin.to_string())
            .collect();
        let aisle = bins.first().and_then(|bin| bin.chars().next()).unwrap_or('?');
        aisles.entry(aisle).or_default().push(Row { item, on_hand, quantity, bins });
    }

    let mut out = String::new();
    let _ = writeln!(out, "Restock report for {}", today);
    let _ = writeln!(out, "{}\n", "=".repeat(40));
    let (mut total_lines, mut total_units, mut total_cents) = (0u32, 0u64, 0u64);
    for (aisle, rows) in &aisles {
        let _ = writeln!(out, "Aisle {} ({} items)", aisle, rows.len());
        for row in rows {
            let cost = u64::from(row.quantity) * row.item.unit_cents;
            let place = if row.bins.is_empty() { "no bin yet".to_string() } else { row.bins.join(", ") };
            let _ = writeln!(out, "  {:<24} on hand {:>5}  order {:>5}  bins {}", row.item.label(), row.on_hand, row.quantity, place);
            if cost > 0 {
                let _ = writeln!(out, "  {:<24} cost {:>8}.{:02}", "", cost / 100, cost % 100);
            }
            total_lines += 1;
            total_units += u64::from(row.quantity);
            total_cents += cost;
        }
        out.push('\n');
    }

    if !pending.is_empty() {
        out.push_str("Ordered yesterday, not yet delivered:\n");
        for (item, quantity) in &pending {
            let _ = writeln!(out, "  {:<24} {:>5} units", item.label(), quantity);
        }
        out.push('\n');
    }

    if !discontinued_empty.is_empty() {
        out.push_str("Discontinued and empty (clear these bins):\n");
        for item in &discontinued_empty {
            let empty: Vec<&str> = stock.bins_of(&item.sku).into_iter().map(|(bin, _)| bin).collect();
            let _ = writeln!(out, "  {:<24} bins {}", item.label(), if empty.is_empty() { "-".to_string() } else { empty.join(", ") });
        }
        out.push('\n');
    }

    let _ = writeln!(out, "{}", "-".repeat(40));
    let _ = writeln!(out, "Lines: {}   Units: {}   Cost: {}.{:02}", total_lines, total_units, total_cents / 100, total_cents % 100);
    if total_lines == 0 {
        out.push_str("Nothing to order today.\n");
    }
    out
}
