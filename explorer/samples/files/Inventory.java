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
package sample.inventory;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public final class Inventory {

    /** The logo printed on the report header, as the design team sent it: one base64 line. */
    static final String LOGO_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ5+7nYV7zXzDkm0guFcrnUAcgHhJhew/tp+Fkd5b/AivqjtAqgqF1kw8jN803lMUiCABtaxrwwMvWJWWKrCyfqgfRPER+MwUe7vlaYOVhQ9bEO8rXbACKmwprX8kzFUpt4oQEqJfFJSYuanwHvL7oQfdFxV1On3R/YVFkxvco1xg1NxOCesiD1/uWWSNAdPUlj2xoCCOJ0uR/HhdakLxDL7lG5qlHEQnzt58RCib2Ip+jRSUm57wWQq60K/In1Q//B8PCBiQpLjuD1anG6uHsKg+eLPYLdTn++IIFvJpJZ1av4v97p8+AZdxmbcRwomtFRP6zFCCNVjnm8Yxt08P8oeekJhCOFY+1nglFz+hhDIh5SBg75De8J2Vm84NbBfESW3OLsVHJcizSxkLm6GQDwK/tp2gyP218xyyepIYIsioT4a/XjPkObyDbEVirR/BM4fwsceCUVIOfw2qbSIv+ZtI6AsEOFs0++y9VIerTzol+8vxBrd7zojdi1g+FQgsSY090BpGktX3/Nf8+gGXfC8DTUWhvbkV3sVyhoWNvYzFEekMthMYx3tdAZs4JMWa3uDuvYCT2NgwT9kthXjpoWFCQMB9E7Ccxp8jv2rXca78GFGZc0Oi4vc9jVDAHpSvPYa6EjztRz0Sovd1cz2leJK6a8DMFthl2i5msbs9dJ8f+bT3KCzo3eYPjzRlkwAUyhICNrtQz4ycXxVHF8Vb9Hdv915HMn7uS94qRlw0HfRVQ0ccbocsZoyVy2/SAfBcy70l9OhnV6TxoGrZPP7riR9Xphta6RpRBevY6nreMi2GOemF/ZBQfBIqE2Q0TNHGOJSxSeL/39bVrra/9RCY95W3j2YTHTbxOppRe2r0x7KUoKt347ZkEJp5tKZv9p5BJcLenuzyl4Y7gnOqiccx/K7m7DLrKxmO8x09aWi3okAtxHVGXC9ggnCurKYw1oCsNSTHYfXD6revJs6yqRfz5JRfSsgHBLe0MuQU419dKfVPAVaRox9mVjB7xnTqbT1sf6gj2EqA3ZV63b3jxcuJej85Yn/WF+M6vL/dxzBlvRMWMHXkF8b7mftdQ1FCkSoRDiBtNWwBoTEEqtIox9e8qmwlg1WIu4WoT0/1Qn6Gfzyac7yK4Jkc2yew+4wbB83mWOuoFaU2UwJisyCyDYGbAOKiejPCp5MMvNEgwQ1tcYs0S7S4zdBBQP97QJa7aR2lLxfep0wfNon0Jhalgr53hNsFoqpY0UYGYd7RIZWQNZSpFffTVqqguuIjtP+dFeiCHVqtKPgGTunu5VF8n6BDOXEadwwhRZtLvEEnFPM9YrEOGfKobE0rO/jTwsNLQkPjt0d48Oqnd1wykG5fdwKScI30/5HzLGvM1epzKeCO811Rx1z4kMkI/6ACXfJkMplgg4ebLSLZ2F5wP6KCdpv9J8Wlnlx5kobXxCFhneGIZNpygjNdFq+PUKFZynT1kiVx4l4u+O3WaXHONQy7sJ+ElFwORgNgsVJFhfVuODl9NEezEAf8eXCC4pPcQlVlUOd944YN4hPpx/4USZxrlXKZNCf7e4oYPJTpbeUobn9kVoIf/LVfBgn9R/ugfodLvum4VQfpESukUAXvRSC7JmPHZJxF1l4E8e9bsLHS6nqxvFFLOHa9a7Mltw8EZbtaxfl5T9WjMbe+d8eT6XPloxNYlGI25jAldhslviTS4HU64Rns9CqTE5irDpoMcmsl6+hRgTUEQap/S2fVFhaDnwUtoj+bPRcW2czSVvbBuRxQM9wWYIm60Pr94hC7aPcj8HvrEqJH+j3FRzmfzVbN6L6/YTfSDnQvIPbogz4sbwf2Z8KaBJQwSsaW/mIZf8MSuuQ9uJhjS1CCNIu3mw8UTRYue/bjyCkxiinSEcHgAyQF6/Ciqh7E1CaBqylBiUlGq+5a91JK7/3l/uaZbQCAjNJ455/YUU9P2G7CBy8iBgLynXapoQtdAiVJAZsCVdl4H8USJitaBy8VHGFA8FWOStj3PqA33V78inuCRcsjQSMdukEviWTaA+d09TaUJikmMzIykdCn2ZruEGk0gA54oAl2s90dn0fcQ1LPKHW6BjWCUf+IYWg1WPCaKtwyeIO4FayC6BYd9/cydM/bN0YAMBEh0pca9jbrmtZ+OIqQwh6ttXGwYQptpWrE2T0m+s13cCwTMGs4wpGgKWaQiN6Tc8nD/0VuLI8ekXbYFS8EcbLDh2To+6N/v1sR1wBUQ5+SRFxumTe+og6Bg8M0aQPs4d19IOjWAhSFeE6+AsuhqB9pk+o96JTbh+3sk/hwhTbtbM6oSsXCTPNVdxg/u+iQtaaFk3MEHraGOamtcQVfuFUKOO4Swt51kBCNpuJ7RZkokiNm/0Y7pRD8wsdV4/DyRP5Io6HP0xmXTcOUgu9aqkOGJlQZ9B9K/Q4DG146uNDUy6Gstugi/D7ALT/AluVftofUfcQrK3XU4HSLszW9r/r1JyjEqAVWB8j3d708IvbsMN7PTODCaPyJ5Qi2dlrR9ftPuG2/nVzXrRjVPSVjQPNMFdU44wFCWDs84/JkXx9WZKG2FOdao+mhGMcmZiIRwvCvb9MS33KrmOxmfH1PDpcxyMr4QoLj3dfkEv9A1A7Z+u7yaaxyhXv48sBsvbYGK2b/NLZIxK8tzgKgQokxPkpAd+xjKKkauC2wC9darJlgq4UfB5d8846MkO7Y5PMueOmwx1KVHP0+M8dAQ3cFm/fzfxvY1VaVnB7FTs8HG5+y3S/bKpy76d4Wz0heDIILBfG3dIVzT6cb5PHZfNJxMEbRR+qr6TeS2mjJ+T29msD1TYVa8pro3lIc4f7cKWIGWkoFDhvgmiw6Rjk3HUUMtU4WcG9q5d/bnvbBuirJ2JjgkmgE0PWO8nrVIHyJID9NJJ99eLLX/ZTTVR/hiKPkPLUWZg6twi01P2gr6oVYsUBA3OZiaDNQQTF8qAL4ibsp20LOrcLHIB3uGGL2rtOh41FlmTGyB5/Vxql55hYILXp92IZqoaBF+Lyh94m8W1Ea9tiMlxkXWd61pwpIi8wca/xDCIdlRSSJpUfxzo69GRUg=";

    private static final Map<String, Integer> PACK_SIZES = Map.of(
            "BOL", 100, "NUT", 100, "WAS", 200, "SCR", 100, "HIN", 10, "BRA", 20);

    /**
     * A stock-keeping unit: one kind of item the warehouse holds.
     * A record, so an item can be used as a map key and shared between reports.
     */
    @SuppressWarnings("unused")
    public record Item(String sku, String name, int reorderAt, long unitCents, boolean discontinued) {
        public String label() {
            return sku + " " + name;
        }
    }

    /** Quantities on hand, per item and per bin. */
    public static final class Stock {
        private final Map<String, TreeMap<String, Integer>> bins = new HashMap<>();

        public void put(String sku, String bin, int quantity) {
            bins.computeIfAbsent(sku, k -> new TreeMap<>()).merge(bin, quantity, Integer::sum);
        }

        /** Takes up to {@code quantity} from one bin; returns the shortfall. */
        public int pick(String sku, String bin, int quantity) {
            TreeMap<String, Integer> held = bins.computeIfAbsent(sku, k -> new TreeMap<>());
            int taken = Math.min(held.getOrDefault(bin, 0), quantity);
            held.put(bin, held.getOrDefault(bin, 0) - taken);
            return quantity - taken;
        }

        public int onHand(String sku) {
            return bins.getOrDefault(sku, new TreeMap<>()).values().stream().mapToInt(Integer::intValue).sum();
        }

        public Map<String, Integer> binsOf(String sku) {
            return bins.getOrDefault(sku, new TreeMap<>());
        }
    }

    // Rounds up to whole packs: suppliers do not split a pack.
    static int orderQuantity(Item item, int onHand) {
        int wanted = Math.max(0, 2 * item.reorderAt() - onHand);
        int pack = PACK_SIZES.getOrDefault(item.sku().substring(0, Math.min(3, item.sku().length())), 1);
        return (wanted + pack - 1) / pack * pack;
    }

    /** The logo bytes, decoded once for the printer driver. */
    static byte[] logo() {
        return Base64.getDecoder().decode(LOGO_PNG_BASE64);
    }

    private record Row(Item item, int onHand, int quantity, List<String> bins) {}

    /**
     * The morning restock report: what to order, aisle by aisle, with totals.
     * {@code previous} maps SKUs to yesterday's ordered quantities, so that an item
     * ordered yesterday and not yet delivered is not ordered twice.
     */
    public static String restockReport(List<Item> items, Stock stock, String today, Map<String, Integer> previous) {
        Map<String, List<Row>> aisles = new TreeMap<>();
        List<Item> discontinuedEmpty = new ArrayList<>();
        List<Map.Entry<Item, Integer>> pending = new ArrayList<>();
        List<Item> sorted = new ArrayList<>(items);
        sorted.sort((a, b) -> a.sku().compareTo(b.sku()));
        for (Item item : sorted) {
            int onHand = stock.onHand(item.sku());
            if (item.discontinued()) {
                if (onHand == 0) {
                    discontinuedEmpty.add(item);
                }
                continue;
            }
            if (onHand > item.reorderAt()) {
                continue;
            }
            int already = previous.getOrDefault(item.sku(), 0);
            if (already > 0) {
                pending.add(Map.entry(item, already));
                continue;
            }
            int quantity = orderQuantity(item, onHand);
            if (quantity == 0) {
                continue;
            }
            List<String> bins = new ArrayList<>();
            for (Map.Entry<String, Integer> slot : stock.binsOf(item.sku()).entrySet()) {
                if (slot.getValue() <= item.reorderAt()) {
                    bins.add(slot.getKey());
                }
            }
            String aisle = bins.isEmpty() ? "?" : bins.get(0).substring(0, 1);
            aisles.computeIfAbsent(aisle, k -> new ArrayList<>()).add(new Row(item, onHand, quantity, bins));
        }

        StringBuilder out = new StringBuilder();
        out.append("Restock report for ").append(today).append('\n').append("=".repeat(40)).append("\n\n");
        int totalLines = 0;
        long totalUnits = 0;
        long totalCents = 0;
        for (Map.Entry<String, List<Row>> aisle : aisles.entrySet()) {
            out.append(String.format("Aisle %s (%d items)%n", aisle.getKey(), aisle.getValue().size()));
            for (Row row : aisle.getValue()) {
                long cost = (long) row.quantity() * row.item().unitCents();
                String where = row.bins().isEmpty() ? "no bin yet" : String.join(", ", row.bins());
                out.append(String.format("  %-24s on hand %5d  order %5d  bins %s%n",
                        row.item().label(), row.onHand(), row.quantity(), where));
                if (cost > 0) {
                    out.append(String.format("  %-24s cost %8d.%02d%n", "", cost / 100, cost % 100));
                }
                totalLines += 1;
                totalUnits += row.quantity();
                totalCents += cost;
            }
            out.append('\n');
        }

        if (!pending.isEmpty()) {
            out.append("Ordered yesterday, not yet delivered:\n");
            for (Map.Entry<Item, Integer> order : pending) {
                out.append(String.format("  %-24s %5d units%n", order.getKey().label(), order.getValue()));
            }
            out.append('\n');
        }

        if (!discontinuedEmpty.isEmpty()) {
            out.append("Discontinued and empty (clear these bins):\n");
            for (Item item : discontinuedEmpty) {
                String empty = String.join(", ", stock.binsOf(item.sku()).keySet());
                out.append(String.format("  %-24s bins %s%n", item.label(), empty.isEmpty() ? "-" : empty));
            }
            out.append('\n');
        }

        out.append("-".repeat(40)).append('\n');
        out.append(String.format("Lines: %d   Units: %d   Cost: %d.%02d%n", totalLines, totalUnits, totalCents / 100, totalCents % 100));
        if (totalLines == 0) {
            out.append("Nothing to order today.\n");
        }
        return out.toString();
    }
}
