/// The parts of one slot's consumer price, per kWh in the user's currency; they add up to ``total``.
public struct PriceComponents: Sendable, Hashable {
    /// The market price, converted to the user's currency.
    public var market: Double
    /// The supplier's markup: `market × markup_percent / 100`.
    public var markup: Double
    /// The constant surcharge.
    public var surcharge: Double
    /// The time-of-use grid fee, weighted over the slot.
    public var gridFee: Double
    /// VAT on the sum of the above; 0 when the sum is negative and `vat_on_negative` is off.
    public var vat: Double
    /// The decimals ``total`` is rounded to: the `price_decimals` setting.
    public var decimals: Int

    /// A price from its parts, published with `decimals` decimals.
    public init(market: Double, markup: Double, surcharge: Double, gridFee: Double, vat: Double, decimals: Int = 6) {
        self.market = market
        self.markup = markup
        self.surcharge = surcharge
        self.gridFee = gridFee
        self.vat = vat
        self.decimals = decimals
    }

    /// Whether every part and the total are finite numbers, as everything published must be.
    public var isFinite: Bool {
        market.isFinite && markup.isFinite && surcharge.isFinite && gridFee.isFinite && vat.isFinite && total.isFinite
    }

    /// What the household pays, rounded to the decimals it is published with; bands are worked
    /// out on this number, so a band always agrees with the price a user reads.
    public var total: Double { DecimalFormat.rounded(market + markup + surcharge + gridFee + vat, decimals: decimals) }

    /// The parts of the price of a kWh at `market` (in the user's currency, on `basis`) with
    /// `gridFee` due.
    ///
    /// Bought (`kind: import`): `(market × (1 + markup) + surcharge + grid_fee) × (1 + vat)`. A
    /// supplier's tariff (``PriceBasis/tariff``) has its margin in it: `(tariff + grid_fee) × (1 + vat)`.
    /// A retail price (``PriceBasis/retail``) is what the household pays already: `retail + grid_fee`.
    /// Sold (`kind: export`): `market × export_factor + export_fee`, with VAT only under
    /// `export_vat`; ``markup`` holds `market × (export_factor − 1)` and ``surcharge`` the fee. Under
    /// `export_negative: zero` a slot whose market price is negative pays nothing: every part but
    /// the market price is zero, and ``markup`` takes the market price back out.
    public init(market: Double, basis: PriceBasis = .market, gridFee: Double, settings: Settings) {
        if settings.kind == .export {
            self.init(exportAt: market, settings: settings)
            return
        }
        if basis == .retail {
            self.init(market: market, markup: 0, surcharge: 0, gridFee: gridFee, vat: 0, decimals: settings.priceDecimals)
            return
        }
        let markup = basis == .market ? market * settings.markupPercent / 100 : 0
        let surcharge = basis == .market ? settings.surcharge : 0
        let beforeVAT = market + markup + surcharge + gridFee
        let taxed = beforeVAT >= 0 || settings.vatOnNegative
        self.init(
            market: market, markup: markup, surcharge: surcharge, gridFee: gridFee,
            vat: taxed ? beforeVAT * settings.vatPercent / 100 : 0, decimals: settings.priceDecimals)
    }

    /// The parts of an export price; see ``init(market:gridFee:settings:)``.
    private init(exportAt market: Double, settings: Settings) {
        if market < 0, settings.exportNegative == .zero {
            self.init(market: market, markup: -market, surcharge: 0, gridFee: 0, vat: 0, decimals: settings.priceDecimals)
            return
        }
        let adjustment = market * (settings.exportFactor - 1)
        let beforeVAT = market + adjustment + settings.exportFee
        let taxed = settings.exportVAT && (beforeVAT >= 0 || settings.vatOnNegative)
        self.init(
            market: market, markup: adjustment, surcharge: settings.exportFee, gridFee: 0,
            vat: taxed ? beforeVAT * settings.vatPercent / 100 : 0, decimals: settings.priceDecimals)
    }
}
