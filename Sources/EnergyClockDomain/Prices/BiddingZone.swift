/// A day-ahead bidding zone: the code users choose with the `zone` setting and its ENTSO-E EIC code.
public struct BiddingZone: Sendable, Hashable {
    /// The short code, e.g. `NL`, `DE-LU` or `IT-North`.
    public let code: String
    /// The Energy Identification Code ENTSO-E uses for the zone.
    public let eic: String

    /// Every zone energyclock knows, in the order they are listed to users.
    public static let all: [BiddingZone] = [
        ("NL", "10YNL----------L"), ("BE", "10YBE----------2"), ("DE-LU", "10Y1001A1001A82H"), ("FR", "10YFR-RTE------C"),
        ("AT", "10YAT-APG------L"), ("CH", "10YCH-SWISSGRIDZ"), ("CZ", "10YCZ-CEPS-----N"), ("PL", "10YPL-AREA-----S"),
        ("DK1", "10YDK-1--------W"), ("DK2", "10YDK-2--------M"),
        ("NO1", "10YNO-1--------2"), ("NO2", "10YNO-2--------T"), ("NO3", "10YNO-3--------J"), ("NO4", "10YNO-4--------9"),
        ("NO5", "10Y1001A1001A48H"),
        ("SE1", "10Y1001A1001A44P"), ("SE2", "10Y1001A1001A45N"), ("SE3", "10Y1001A1001A46L"), ("SE4", "10Y1001A1001A47J"),
        ("FI", "10YFI-1--------U"), ("EE", "10Y1001A1001A39I"), ("LV", "10YLV-1001A00074"), ("LT", "10YLT-1001A0008Q"),
        ("ES", "10YES-REE------0"), ("PT", "10YPT-REN------W"),
        ("IT-North", "10Y1001A1001A73I"), ("IT-Centre-North", "10Y1001A1001A70O"), ("IT-Centre-South", "10Y1001A1001A71M"),
        ("IT-South", "10Y1001A1001A788"), ("IT-Calabria", "10Y1001C--00096J"), ("IT-Sicily", "10Y1001A1001A75E"),
        ("IT-Sardinia", "10Y1001A1001A74G"),
        ("HU", "10YHU-MAVIR----U"), ("SI", "10YSI-ELES-----O"), ("SK", "10YSK-SEPS-----K"), ("HR", "10YHR-HEP------M"),
        ("RO", "10YRO-TEL------P"), ("BG", "10YCA-BULGARIA-R"), ("GR", "10YGR-HTSO-----Y"), ("RS", "10YCS-SERBIATSOV"),
        ("IE-SEM", "10Y1001A1001A59C"),
    ].map { BiddingZone(code: $0.0, eic: $0.1) }

    /// Every zone code the `zone` setting takes: the ENTSO-E zones above, then Great Britain (`GB`),
    /// whose market is outside the European coupling and is served by `octopus` only.
    public static let codes: [String] = all.map(\.code) + ["GB"]

    /// The zone with `code`, compared case-sensitively as written above.
    public static func named(_ code: String) -> BiddingZone? { all.first { $0.code == code } }
}
