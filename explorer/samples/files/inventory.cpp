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

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inventory {

// The logo printed on the report header, as the design team sent it: one base64 line.
inline constexpr std::string_view kLogoPngBase64 = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ5+7nYV7zXzDkm0guFcrnUAcgHhJhew/tp+Fkd5b/AivqjtAqgqF1kw8jN803lMUiCABtaxrwwMvWJWWKrCyfqgfRPER+MwUe7vlaYOVhQ9bEO8rXbACKmwprX8kzFUpt4oQEqJfFJSYuanwHvL7oQfdFxV1On3R/YVFkxvco1xg1NxOCesiD1/uWWSNAdPUlj2xoCCOJ0uR/HhdakLxDL7lG5qlHEQnzt58RCib2Ip+jRSUm57wWQq60K/In1Q//B8PCBiQpLjuD1anG6uHsKg+eLPYLdTn++IIFvJpJZ1av4v97p8+AZdxmbcRwomtFRP6zFCCNVjnm8Yxt08P8oeekJhCOFY+1nglFz+hhDIh5SBg75De8J2Vm84NbBfESW3OLsVHJcizSxkLm6GQDwK/tp2gyP218xyyepIYIsioT4a/XjPkObyDbEVirR/BM4fwsceCUVIOfw2qbSIv+ZtI6AsEOFs0++y9VIerTzol+8vxBrd7zojdi1g+FQgsSY090BpGktX3/Nf8+gGXfC8DTUWhvbkV3sVyhoWNvYzFEekMthMYx3tdAZs4JMWa3uDuvYCT2NgwT9kthXjpoWFCQMB9E7Ccxp8jv2rXca78GFGZc0Oi4vc9jVDAHpSvPYa6EjztRz0Sovd1cz2leJK6a8DMFthl2i5msbs9dJ8f+bT3KCzo3eYPjzRlkwAUyhICNrtQz4ycXxVHF8Vb9Hdv915HMn7uS94qRlw0HfRVQ0ccbocsZoyVy2/SAfBcy70l9OhnV6TxoGrZPP7riR9Xphta6RpRBevY6nreMi2GOemF/ZBQfBIqE2Q0TNHGOJSxSeL/39bVrra/9RCY95W3j2YTHTbxOppRe2r0x7KUoKt347ZkEJp5tKZv9p5BJcLenuzyl4Y7gnOqiccx/K7m7DLrKxmO8x09aWi3okAtxHVGXC9ggnCurKYw1oCsNSTHYfXD6revJs6yqRfz5JRfSsgHBLe0MuQU419dKfVPAVaRox9mVjB7xnTqbT1sf6gj2EqA3ZV63b3jxcuJej85Yn/WF+M6vL/dxzBlvRMWMHXkF8b7mftdQ1FCkSoRDiBtNWwBoTEEqtIox9e8qmwlg1WIu4WoT0/1Qn6Gfzyac7yK4Jkc2yew+4wbB83mWOuoFaU2UwJisyCyDYGbAOKiejPCp5MMvNEgwQ1tcYs0S7S4zdBBQP97QJa7aR2lLxfep0wfNon0Jhalgr53hNsFoqpY0UYGYd7RIZWQNZSpFffTVqqguuIjtP+dFeiCHVqtKPgGTunu5VF8n6BDOXEadwwhRZtLvEEnFPM9YrEOGfKobE0rO/jTwsNLQkPjt0d48Oqnd1wykG5fdwKScI30/5HzLGvM1epzKeCO811Rx1z4kMkI/6ACXfJkMplgg4ebLSLZ2F5wP6KCdpv9J8Wlnlx5kobXxCFhneGIZNpygjNdFq+PUKFZynT1kiVx4l4u+O3WaXHONQy7sJ+ElFwORgNgsVJFhfVuODl9NEezEAf8eXCC4pPcQlVlUOd944YN4hPpx/4USZxrlXKZNCf7e4oYPJTpbeUobn9kVoIf/LVfBgn9R/ugfodLvum4VQfpESukUAXvRSC7JmPHZJxF1l4E8e9bsLHS6nqxvFFLOHa9a7Mltw8EZbtaxfl5T9WjMbe+d8eT6XPloxNYlGI25jAldhslviTS4HU64Rns9CqTE5irDpoMcmsl6+hRgTUEQap/S2fVFhaDnwUtoj+bPRcW2czSVvbBuRxQM9wWYIm60Pr94hC7aPcj8HvrEqJH+j3FRzmfzVbN6L6/YTfSDnQvIPbogz4sbwf2Z8KaBJQwSsaW/mIZf8MSuuQ9uJhjS1CCNIu3mw8UTRYue/bjyCkxiinSEcHgAyQF6/Ciqh7E1CaBqylBiUlGq+5a91JK7/3l/uaZbQCAjNJ455/YUU9P2G7CBy8iBgLynXapoQtdAiVJAZsCVdl4H8USJitaBy8VHGFA8FWOStj3PqA33V78inuCRcsjQSMdukEviWTaA+d09TaUJikmMzIykdCn2ZruEGk0gA54oAl2s90dn0fcQ1LPKHW6BjWCUf+IYWg1WPCaKtwyeIO4FayC6BYd9/cydM/bN0YAMBEh0pca9jbrmtZ+OIqQwh6ttXGwYQptpWrE2T0m+s13cCwTMGs4wpGgKWaQiN6Tc8nD/0VuLI8ekXbYFS8EcbLDh2To+6N/v1sR1wBUQ5+SRFxumTe+og6Bg8M0aQPs4d19IOjWAhSFeE6+AsuhqB9pk+o96JTbh+3sk/hwhTbtbM6oSsXCTPNVdxg/u+iQtaaFk3MEHraGOamtcQVfuFUKOO4Swt51kBCNpuJ7RZkokiNm/0Y7pRD8wsdV4/DyRP5Io6HP0xmXTcOUgu9aqkOGJlQZ9B9K/Q4DG146uNDUy6Gstugi/D7ALT/AluVftofUfcQrK3XU4HSLszW9r/r1JyjEqAVWB8j3d708IvbsMN7PTODCaPyJ5Qi2dlrR9ftPuG2/nVzXrRjVPSVjQPNMFdU44wFCWDs84/JkXx9WZKG2FOdao+mhGMcmZiIRwvCvb9MS33KrmOxmfH1PDpcxyMr4QoLj3dfkEv9A1A7Z+u7yaaxyhXv48sBsvbYGK2b/NLZIxK8tzgKgQokxPkpAd+xjKKkauC2wC9darJlgq4UfB5d8846MkO7Y5PMueOmwx1KVHP0+M8dAQ3cFm/fzfxvY1VaVnB7FTs8HG5+y3S/bKpy76d4Wz0heDIILBfG3dIVzT6cb5PHZfNJxMEbRR+qr6TeS2mjJ+T29msD1TYVa8pro3lIc4f7cKWIGWkoFDhvgmiw6Rjk3HUUMtU4WcG9q5d/bnvbBuirJ2JjgkmgE0PWO8nrVIHyJID9NJJ99eLLX/ZTTVR/hiKPkPLUWZg6twi01P2gr6oVYsUBA3OZiaDNQQTF8qAL4ibsp20LOrcLHIB3uGGL2rtOh41FlmTGyB5/Vxql55hYILXp92IZqoaBF+Lyh94m8W1Ea9tiMlxkXWd61pwpIi8wca/xDCIdlRSSJpUfxzo69GRUg=";

/// A stock-keeping unit: one kind of item the warehouse holds.
/// Copied by value: an item is a handful of small fields.
class Item {
public:
    std::string sku;
    std::string name;
    int reorder_at = 10;
    std::int64_t unit_cents = 0;
    bool discontinued = false;

    [[nodiscard]] std::string label() const { return sku + " " + name; }
};

/// Quantities on hand, per item and per bin.
class Stock {
public:
    void put(const std::string& sku, const std::string& bin, int quantity) { bins_[sku][bin] += quantity; }

    /// Takes up to `quantity` from one bin; returns the shortfall.
    int pick(const std::string& sku, const std::string& bin, int quantity) {
        int& held = bins_[sku][bin];
        const int taken = std::min(held, quantity);
        held -= taken;
        return quantity - taken;
    }

    [[nodiscard]] int on_hand(const std::string& sku) const {
        int total = 0;
        if (auto found = bins_.find(sku); found != bins_.end())
            for (const auto& [bin, quantity] : found->second) total += quantity;
        return total;
    }

    [[nodiscard]] std::map<std::string, int> bins_of(const std::string& sku) const {
        auto found = bins_.find(sku);
        return found == bins_.end() ? std::map<std::string, int>{} : found->second;
    }

private:
    std::map<std::string, std::map<std::string, int>> bins_;
};

// Rounds up to whole packs: suppliers do not split a pack.
inline int order_quantity(const Item& item, int on_hand) {
    static const std::map<std::string, int> packs{{"BOL", 100}, {"NUT", 100}, {"WAS", 200},
                                                  {"SCR", 100}, {"HIN", 10},  {"BRA", 20}};
    const int wanted = std::max(0, 2 * item.reorder_at - on_hand);
    const auto found = packs.find(item.sku.substr(0, 3));
    const int pack = found == packs.end() ? 1 : found->second;
    return (wanted + pack - 1) / pack * pack;
}

/// The morning restock report: what to order, aisle by aisle, with totals.
/// `previous` maps SKUs to yesterday's ordered quantities, so that an item
/// ordered yesterday and not yet delivered is not ordered twice.
std::string restock_report(std::vector<Item> items, const Stock& stock, const std::string& today,
                           const std::map<std::string, int>& previous) {
    struct Row {
        const Item* item;
        int on_hand;
        int quantity;
        std::vector<std::string> bins;
    };
    std::map<char, std::vector<Row>> aisles;
    std::vector<const Item*> discontinued_empty;
    std::vector<std::pair<const Item*, int>> pending;
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.sku < b.sku; });
    for (const Item& item : items) {
        const int on_hand = stock.on_hand(item.sku);
        if (item.discontinued) {
            if (on_hand == 0) discontinued_empty.push_back(&item);
            continue;
        }
        if (on_hand > item.reorder_at) continue;
        if (auto found = previous.find(item.sku); found != previous.end() && found->second > 0) {
            pending.emplace_back(&item, found->second);
            continue;
        }
        const int quantity = order_quantity(item, on_hand);
        if (quantity == 0) continue;
        std::vector<std::string> bins;
        for (const auto& [bin, held] : stock.bins_of(item.sku))
            if (held <= item.reorder_at) bins.push_back(bin);
        const char aisle = bins.empty() ? '?' : bins.front().front();
        aisles[aisle].push_back(Row{&item, on_hand, quantity, bins});
    }

    std::ostringstream out;
    out << "Restock report for " << today << '\n' << std::string(40, '=') << "\n\n";
    int total_lines = 0;
    std::int64_t total_units = 0;
    std::int64_t total_cents = 0;
    for (const auto& [aisle, rows] : aisles) {
        out << "Aisle " << aisle << " (" << rows.size() << " items)\n";
        for (const Row& row : rows) {
            const std::int64_t cost = row.quantity * row.item->unit_cents;
            std::string where;
            for (const auto& bin : row.bins) where += (where.empty() ? "" : ", ") + bin;
            out << "  " << row.item->label() << "  on hand " << row.on_hand << "  order " << row.quantity
                << "  bins " << (where.empty() ? "no bin yet" : where) << '\n';
            if (cost > 0) out << "  cost " << cost / 100 << '.' << (cost % 100 < 10 ? "0" : "") << cost % 100 << '\n';
            total_lines += 1;
            total_units += row.quantity;
            total_cents += cost;
        }
        out << '\n';
    }

    if (!pending.empty()) {
        out << "Ordered yesterday, not yet delivered:\n";
        for (const auto& [item, quantity] : pending) out << "  " << item->label() << "  " << quantity << " units\n";
        out << '\n';
    }

    if (!discontinued_empty.empty()) {
        out << "Discontinued and empty (clear these bins):\n";
        for (const Item* item : discontinued_empty) {
            out << "  " << item->label() << "  bins";
            for (const auto& [bin, held] : stock.bins_of(item->sku)) out << ' ' << bin;
            out << '\n';
        }
        out << '\n';
    }

    out << std::string(40, '-') << '\n';
    out << "Lines: " << total_lines << "   Units: " << total_units << "   Cost: " << total_cents / 100 << '.'
        << (total_cents % 100 < 10 ? "0" : "") << total_cents % 100 << '\n';
    if (total_lines == 0) out << "Nothing to order today.\n";
    return out.str();
}

}  // namespace inventory
