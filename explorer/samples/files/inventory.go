/*
Inventory: stock levels, reorder rules and a restock report for a small warehouse.

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
*/
package inventory

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// SeedCatalog is the supplier's seed catalog, kept exactly as it arrives: one minified line.
const SeedCatalog = `{"version":3,"warehouse":"north","items":[{"sku":"BOL-1000","name":"bolt M3","qty":331,"min":25,"bin":"A26"},{"sku":"NUT-1001","name":"nut M4","qty":666,"min":10,"bin":"B05"},{"sku":"WAS-1002","name":"washer M5","qty":840,"min":10,"bin":"C24"},{"sku":"SCR-1003","name":"screw M6","qty":596,"min":10,"bin":"D33"},{"sku":"HIN-1004","name":"hinge M8","qty":219,"min":10,"bin":"E06"},{"sku":"BRA-1005","name":"bracket M10","qty":444,"min":100,"bin":"F05"},{"sku":"SPR-1006","name":"spring M3","qty":246,"min":10,"bin":"G36"},{"sku":"GEA-1007","name":"gear M4","qty":434,"min":10,"bin":"H37"},{"sku":"PUL-1008","name":"pulley M5","qty":126,"min":25,"bin":"A38"},{"sku":"RIV-1009","name":"rivet M6","qty":63,"min":100,"bin":"B04"},{"sku":"CLA-1010","name":"clamp M8","qty":226,"min":10,"bin":"C36"},{"sku":"VAL-1011","name":"valve M10","qty":879,"min":25,"bin":"D19"},{"sku":"BOL-1012","name":"bolt M3","qty":429,"min":25,"bin":"E35"},{"sku":"NUT-1013","name":"nut M4","qty":120,"min":50,"bin":"F36"},{"sku":"WAS-1014","name":"washer M5","qty":835,"min":25,"bin":"G07"},{"sku":"SCR-1015","name":"screw M6","qty":595,"min":25,"bin":"H24"},{"sku":"HIN-1016","name":"hinge M8","qty":99,"min":10,"bin":"A37"},{"sku":"BRA-1017","name":"bracket M10","qty":61,"min":25,"bin":"B32"},{"sku":"SPR-1018","name":"spring M3","qty":696,"min":100,"bin":"C21"},{"sku":"GEA-1019","name":"gear M4","qty":476,"min":100,"bin":"D24"},{"sku":"PUL-1020","name":"pulley M5","qty":306,"min":25,"bin":"E12"},{"sku":"RIV-1021","name":"rivet M6","qty":715,"min":25,"bin":"F06"},{"sku":"CLA-1022","name":"clamp M8","qty":588,"min":50,"bin":"G34"},{"sku":"VAL-1023","name":"valve M10","qty":506,"min":50,"bin":"H29"},{"sku":"BOL-1024","name":"bolt M3","qty":294,"min":10,"bin":"A08"},{"sku":"NUT-1025","name":"nut M4","qty":524,"min":100,"bin":"B11"},{"sku":"WAS-1026","name":"washer M5","qty":775,"min":50,"bin":"C10"},{"sku":"SCR-1027","name":"screw M6","qty":500,"min":100,"bin":"D03"},{"sku":"HIN-1028","name":"hinge M8","qty":684,"min":10,"bin":"E36"},{"sku":"BRA-1029","name":"bracket M10","qty":586,"min":50,"bin":"F22"},{"sku":"SPR-1030","name":"spring M3","qty":711,"min":50,"bin":"G39"},{"sku":"GEA-1031","name":"gear M4","qty":508,"min":100,"bin":"H05"},{"sku":"PUL-1032","name":"pulley M5","qty":860,"min":10,"bin":"A18"},{"sku":"RIV-1033","name":"rivet M6","qty":485,"min":10,"bin":"B04"},{"sku":"CLA-1034","name":"clamp M8","qty":748,"min":50,"bin":"C37"},{"sku":"VAL-1035","name":"valve M10","qty":697,"min":100,"bin":"D19"},{"sku":"BOL-1036","name":"bolt M3","qty":733,"min":100,"bin":"E23"},{"sku":"NUT-1037","name":"nut M4","qty":23,"min":100,"bin":"F23"},{"sku":"WAS-1038","name":"washer M5","qty":172,"min":10,"bin":"G32"},{"sku":"SCR-1039","name":"screw M6","qty":60,"min":25,"bin":"H19"},{"sku":"HIN-1040","name":"hinge M8","qty":132,"min":25,"bin":"A26"},{"sku":"BRA-1041","name":"bracket M10","qty":400,"min":100,"bin":"B06"},{"sku":"SPR-1042","name":"spring M3","qty":170,"min":100,"bin":"C26"},{"sku":"GEA-1043","name":"gear M4","qty":562,"min":50,"bin":"D09"}]}`

var packSizes = map[string]int{"BOL": 100, "NUT": 100, "WAS": 200, "SCR": 100, "HIN": 10, "BRA": 20}

// Item is a stock-keeping unit: one kind of item the warehouse holds.
// It is passed by value: an item is a handful of small fields.
type Item struct {
	SKU          string
	Name         string
	ReorderAt    int
	UnitCents    int
	Discontinued bool
}

// Label is the item as the report shows it.
func (i Item) Label() string {
	return i.SKU + " " + i.Name
}

// Stock holds the quantities on hand, per item and per bin.
type Stock struct {
	bins map[string]map[string]int
}

// NewStock returns an empty stock table.
func NewStock() *Stock {
	return &Stock{bins: map[string]map[string]int{}}
}

// Put adds quantity to one bin.
func (s *Stock) Put(sku, bin string, quantity int) {
	if s.bins[sku] == nil {
		s.bins[sku] = map[string]int{}
	}
	s.bins[sku][bin] += quantity
}

// Pick takes up to quantity from one bin and returns the shortfall.
func (s *Stock) Pick(sku, bin string, quantity int) int {
	held := s.bins[sku][bin]
	taken := min(held, quantity)
	s.bins[sku][bin] = held - taken
	return quantity - taken
}

// OnHand is the total over all bins of an item.
func (s *Stock) OnHand(sku string) int {
	total := 0
	for _, quantity := range s.bins[sku] {
		total += quantity
	}
	return total
}

// LoadCatalog reads items and opening stock from the supplier's catalog.
func LoadCatalog(text string) ([]Item, *Stock, error) {
	var data struct {
		Items []struct {
			SKU, Name, Bin string
			Qty, Min       int
		}
	}
	if err := json.Unmarshal([]byte(text), &data); err != nil {
		return nil, nil, err
	}
	items, stock := []Item{}, NewStock()
	for _, entry := range data.Items {
		items = append(items, Item{SKU: entry.SKU, Name: entry.Name, ReorderAt: entry.Min})
		stock.Put(entry.SKU, entry.Bin, entry.Qty)
	}
	return items, stock, nil
}

// OrderQuantity rounds up to whole packs: suppliers do not split a pack.
func OrderQuantity(item Item, onHand int) int {
	wanted := max(0, 2*item.ReorderAt-onHand)
	pack, ok := packSizes[item.SKU[:min(3, len(item.SKU))]]
	if !ok {
		pack = 1
	}
	return (wanted + pack - 1) / pack * pack
}

type row struct {
	item     Item
	onHand   int
	quantity int
	bins     []string
}

// RestockReport is the morning restock report: what to order, aisle by aisle,
// with totals. previous maps SKUs to yesterday's ordered quantities, so that an
// item ordered yesterday and not yet delivered is not ordered twice.
func RestockReport(items []Item, stock *Stock, today string, previous map[string]int) string {
	aisles := map[string][]row{}
	var discontinuedEmpty []Item
	type pendingOrder struct {
		item     Item
		quantity int
	}
	var pending []pendingOrder
	sorted := append([]Item(nil), items...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].SKU < sorted[b].SKU })
	for _, item := range sorted {
		onHand := stock.OnHand(item.SKU)
		if item.Discontinued {
			if onHand == 0 {
				discontinuedEmpty = append(discontinuedEmpty, item)
			}
			continue
		}
		if onHand > item.ReorderAt {
			continue
		}
		if already := previous[item.SKU]; already > 0 {
			pending = append(pending, pendingOrder{item, already})
			continue
		}
		quantity := OrderQuantity(item, onHand)
		if quantity == 0 {
			continue
		}
		var bins []string
		for bin, held := range stock.bins[item.SKU] {
			if held <= item.ReorderAt {
				bins = append(bins, bin)
			}
		}
		sort.Strings(bins)
		aisle := "?"
		if len(bins) > 0 {
			aisle = bins[0][:1]
		}
		aisles[aisle] = append(aisles[aisle], row{item, onHand, quantity, bins})
	}

	var out strings.Builder
	fmt.Fprintf(&out, "Restock report for %s\n%s\n\n", today, strings.Repeat("=", 40))
	totalLines, totalUnits, totalCents := 0, 0, 0
	names := make([]string, 0, len(aisles))
	for aisle := range aisles {
		names = append(names, aisle)
	}
	sort.Strings(names)
	for _, aisle := range names {
		rows := aisles[aisle]
		fmt.Fprintf(&out, "Aisle %s (%d items)\n", aisle, len(rows))
		for _, r := range rows {
			cost := r.quantity * r.item.UnitCents
			where := "no bin yet"
			if len(r.bins) > 0 {
				where = strings.Join(r.bins, ", ")
			}
			fmt.Fprintf(&out, "  %-24s on hand %5d  order %5d  bins %s\n", r.item.Label(), r.onHand, r.quantity, where)
			if cost > 0 {
				fmt.Fprintf(&out, "  %-24s cost %8d.%02d\n", "", cost/100, cost%100)
			}
			totalLines++
			totalUnits += r.quantity
			totalCents += cost
		}
		out.WriteString("\n")
	}

	if len(pending) > 0 {
		out.WriteString("Ordered yesterday, not yet delivered:\n")
		for _, p := range pending {
			fmt.Fprintf(&out, "  %-24s %5d units\n", p.item.Label(), p.quantity)
		}
		out.WriteString("\n")
	}

	if len(discontinuedEmpty) > 0 {
		out.WriteString("Discontinued and empty (clear these bins):\n")
		for _, item := range discontinuedEmpty {
			var empty []string
			for bin := range stock.bins[item.SKU] {
				empty = append(empty, bin)
			}
			sort.Strings(empty)
			fmt.Fprintf(&out, "  %-24s bins %s\n", item.Label(), strings.Join(empty, ", "))
		}
		out.WriteString("\n")
	}

	fmt.Fprintf(&out, "%s\nLines: %d   Units: %d   Cost: %d.%02d\n", strings.Repeat("-", 40), totalLines, totalUnits, totalCents/100, totalCents%100)
	if totalLines == 0 {
		out.WriteString("Nothing to order today.\n")
	}
	return out.String()
}
