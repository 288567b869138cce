"""Inventory: stock levels, reorder rules and a restock report for a small warehouse.

Design notes

This module keeps the stock levels of a small warehouse and decides
when an item must be reordered. It is deliberately written as one file
so that it can serve as a teaching sample for code chunking: the long
comment you are reading now is far larger than one chunk, so the
chunker cannot keep it whole and has to cut it between lines.

Stock is counted per item and per bin. An item is identified by its
SKU, a short code made of three letters and a number. A bin is a shelf
position such as A07. The same item may sit in several bins; the total
on hand is the sum over its bins. Counts never go below zero: a pick
that asks for more than a bin holds takes what is there and reports the
shortfall, so that the caller can try the next bin.

Every item has a reorder point. When the quantity on hand falls to or
below it, the item is due for restocking. The quantity to order is
chosen so that, after delivery, stock reaches twice the reorder point,
rounded up to the supplier's pack size. Items marked as discontinued
are never reordered, even when they run out; they are listed in the
report so that someone can clear their bins.

The restock report walks every item once, in SKU order. It groups the
items by the first letter of their bin (the aisle), because the person
doing the restock walks the aisles in that order. For each aisle it
prints the items to reorder, the quantity, and the bins to refill, and
it ends with totals: the number of lines, the units ordered and the
estimated cost at the last known unit price.

The seed catalog below comes from the supplier as one minified line.
It is kept verbatim on purpose: a line that long cannot be cut between
statements or even between lines, so a chunker has to fall back to
cutting it at character boundaries, and a good one says so.

Prices are held in cents as whole numbers, never as floating point, so
that totals add up exactly. Dates are calendar dates without a time of
day; the report is meant to be printed once every morning, before the
first delivery arrives, and compared with the previous day's copy.

Nothing here talks to a database or the network. The functions take
plain values and return plain values, which keeps them easy to test:
build a few items, put them in bins, run the report, and compare the
text with what you expect. The only state is the stock table itself.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

# The supplier's seed catalog, kept exactly as it arrives: one minified line.
SEED_CATALOG = '{"version":3,"warehouse":"north","items":[{"sku":"BOL-1000","name":"bolt M3","qty":331,"min":25,"bin":"A26"},{"sku":"NUT-1001","name":"nut M4","qty":666,"min":10,"bin":"B05"},{"sku":"WAS-1002","name":"washer M5","qty":840,"min":10,"bin":"C24"},{"sku":"SCR-1003","name":"screw M6","qty":596,"min":10,"bin":"D33"},{"sku":"HIN-1004","name":"hinge M8","qty":219,"min":10,"bin":"E06"},{"sku":"BRA-1005","name":"bracket M10","qty":444,"min":100,"bin":"F05"},{"sku":"SPR-1006","name":"spring M3","qty":246,"min":10,"bin":"G36"},{"sku":"GEA-1007","name":"gear M4","qty":434,"min":10,"bin":"H37"},{"sku":"PUL-1008","name":"pulley M5","qty":126,"min":25,"bin":"A38"},{"sku":"RIV-1009","name":"rivet M6","qty":63,"min":100,"bin":"B04"},{"sku":"CLA-1010","name":"clamp M8","qty":226,"min":10,"bin":"C36"},{"sku":"VAL-1011","name":"valve M10","qty":879,"min":25,"bin":"D19"},{"sku":"BOL-1012","name":"bolt M3","qty":429,"min":25,"bin":"E35"},{"sku":"NUT-1013","name":"nut M4","qty":120,"min":50,"bin":"F36"},{"sku":"WAS-1014","name":"washer M5","qty":835,"min":25,"bin":"G07"},{"sku":"SCR-1015","name":"screw M6","qty":595,"min":25,"bin":"H24"},{"sku":"HIN-1016","name":"hinge M8","qty":99,"min":10,"bin":"A37"},{"sku":"BRA-1017","name":"bracket M10","qty":61,"min":25,"bin":"B32"},{"sku":"SPR-1018","name":"spring M3","qty":696,"min":100,"bin":"C21"},{"sku":"GEA-1019","name":"gear M4","qty":476,"min":100,"bin":"D24"},{"sku":"PUL-1020","name":"pulley M5","qty":306,"min":25,"bin":"E12"},{"sku":"RIV-1021","name":"rivet M6","qty":715,"min":25,"bin":"F06"},{"sku":"CLA-1022","name":"clamp M8","qty":588,"min":50,"bin":"G34"},{"sku":"VAL-1023","name":"valve M10","qty":506,"min":50,"bin":"H29"},{"sku":"BOL-1024","name":"bolt M3","qty":294,"min":10,"bin":"A08"},{"sku":"NUT-1025","name":"nut M4","qty":524,"min":100,"bin":"B11"},{"sku":"WAS-1026","name":"washer M5","qty":775,"min":50,"bin":"C10"},{"sku":"SCR-1027","name":"screw M6","qty":500,"min":100,"bin":"D03"},{"sku":"HIN-1028","name":"hinge M8","qty":684,"min":10,"bin":"E36"},{"sku":"BRA-1029","name":"bracket M10","qty":586,"min":50,"bin":"F22"},{"sku":"SPR-1030","name":"spring M3","qty":711,"min":50,"bin":"G39"},{"sku":"GEA-1031","name":"gear M4","qty":508,"min":100,"bin":"H05"},{"sku":"PUL-1032","name":"pulley M5","qty":860,"min":10,"bin":"A18"},{"sku":"RIV-1033","name":"rivet M6","qty":485,"min":10,"bin":"B04"},{"sku":"CLA-1034","name":"clamp M8","qty":748,"min":50,"bin":"C37"},{"sku":"VAL-1035","name":"valve M10","qty":697,"min":100,"bin":"D19"},{"sku":"BOL-1036","name":"bolt M3","qty":733,"min":100,"bin":"E23"},{"sku":"NUT-1037","name":"nut M4","qty":23,"min":100,"bin":"F23"},{"sku":"WAS-1038","name":"washer M5","qty":172,"min":10,"bin":"G32"},{"sku":"SCR-1039","name":"screw M6","qty":60,"min":25,"bin":"H19"},{"sku":"HIN-1040","name":"hinge M8","qty":132,"min":25,"bin":"A26"},{"sku":"BRA-1041","name":"bracket M10","qty":400,"min":100,"bin":"B06"},{"sku":"SPR-1042","name":"spring M3","qty":170,"min":100,"bin":"C26"},{"sku":"GEA-1043","name":"gear M4","qty":562,"min":50,"bin":"D09"}]}'

PACK_SIZES = {"BOL": 100, "NUT": 100, "WAS": 200, "SCR": 100, "HIN": 10, "BRA": 20}


# A stock-keeping unit: one kind of item the warehouse holds. Frozen, so an
# item can be used as a dictionary key and shared between reports.
@dataclass(frozen=True)
class Item:
    """One kind of item, identified by its SKU."""

    sku: str
    name: str
    reorder_at: int = 10
    unit_cents: int = 0
    discontinued: bool = False

    def label(self) -> str:
        return f"{self.sku} {self.name}"


@dataclass
class Stock:
    """Quantities on hand, per item and per bin."""

    bins: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))

    def put(self, sku: str, bin_code: str, quantity: int) -> None:
        held = self.bins[sku].get(bin_code, 0)
        self.bins[sku][bin_code] = held + quantity

    def pick(self, sku: str, bin_code: str, quantity: int) -> int:
        """Take up to ``quantity`` from one bin; returns the shortfall."""
        held = self.bins[sku].get(bin_code, 0)
        taken = min(held, quantity)
        self.bins[sku][bin_code] = held - taken
        return quantity - taken

    def on_hand(self, sku: str) -> int:
        return sum(self.bins[sku].values())


def load_catalog(text: str = SEED_CATALOG) -> tuple[list[Item], Stock]:
    """Items and opening stock from the supplier's catalog."""
    data = json.loads(text)
    items, stock = [], Stock()
    for entry in data["items"]:
        items.append(Item(entry["sku"], entry["name"], reorder_at=entry["min"]))
        stock.put(entry["sku"], entry["bin"], entry["qty"])
    return items, stock


# Rounds up to whole packs: suppliers do not split a pack.
def order_quantity(item: Item, on_hand: int) -> int:
    wanted = max(0, 2 * item.reorder_at - on_hand)
    pack = PACK_SIZES.get(item.sku[:3], 1)
    return -(-wanted // pack) * pack


def restock_report(items: list[Item], stock: Stock, today: str, previous: dict[str, int] | None = None) -> str:
    """The morning restock report: what to order, aisle by aisle, with totals.

    ``previous`` maps SKUs to yesterday's ordered quantities, so that an item
    ordered yesterday and not yet delivered is not ordered twice.
    """
    previous = previous or {}
    aisles: dict[str, list[tuple[Item, int, int, list[str]]]] = defaultdict(list)
    discontinued_empty: list[Item] = []
    pending: list[tuple[Item, int]] = []
    for item in sorted(items, key=lambda i: i.sku):
        on_hand = stock.on_hand(item.sku)
        if item.discontinued:
            if on_hand == 0:
                discontinued_empty.append(item)
            continue
        if on_hand > item.reorder_at:
            continue
        already = previous.get(item.sku, 0)
        if already:
            pending.append((item, already))
            continue
        quantity = order_quantity(item, on_hand)
        if quantity == 0:
            continue
        bins = sorted(b for b, held in stock.bins[item.sku].items() if held <= item.reorder_at)
        aisle = bins[0][0] if bins else "?"
        aisles[aisle].append((item, on_hand, quantity, bins))

    lines = [f"Restock report for {today}", "=" * 40, ""]
    total_lines = total_units = total_cents = 0
    for aisle in sorted(aisles):
        rows = aisles[aisle]
        lines.append(f"Aisle {aisle} ({len(rows)} items)")
        for item, on_hand, quantity, bins in rows:
            cost = quantity * item.unit_cents
            where = ", ".join(bins) if bins else "no bin yet"
            lines.append(f"  {item.label():<24} on hand {on_hand:>5}  order {quantity:>5}  bins {where}")
            if cost:
                lines.append(f"  {'':<24} cost {cost // 100:>8}.{cost % 100:02d}")
            total_lines += 1
            total_units += quantity
            total_cents += cost
        lines.append("")

    if pending:
        lines.append("Ordered yesterday, not yet delivered:")
        for item, quantity in pending:
            lines.append(f"  {item.label():<24} {quantity:>5} units")
        lines.append("")

    if discontinued_empty:
        lines.append("Discontinued and empty (clear these bins):")
        for item in discontinued_empty:
            empty_bins = sorted(stock.bins[item.sku])
            lines.append(f"  {item.label():<24} bins {', '.join(empty_bins) or '-'}")
        lines.append("")

    lines.append("-" * 40)
    lines.append(f"Lines: {total_lines}   Units: {total_units}   Cost: {total_cents // 100}.{total_cents % 100:02d}")
    if not total_lines:
        lines.append("Nothing to order today.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    catalog, opening = load_catalog()
    print(restock_report(catalog, opening, today="2024-06-01"))
