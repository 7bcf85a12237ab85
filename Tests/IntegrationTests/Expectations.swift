import EnergyClockTesting
import Foundation

/// Independent reading of the EnergyZero fixture, for checking what the daemon publishes.
enum FixtureTruth {
    /// Quarter-hour `base` prices keyed by UTC start.
    static let quarters: [Date: Double] = {
        let json = try! JSONSerialization.jsonObject(with: Data(ServiceHarness.quarterFixture)) as! [String: Any]
        var result: [Date: Double] = [:]
        for item in json["base"] as! [[String: Any]] {
            let start = at(item["start"] as! String)
            result[start] = Double((item["price"] as! [String: String])["value"]!)!
        }
        return result
    }()

    /// Mean market price of the hour starting at `start` (UTC).
    static func hourMean(_ start: Date) -> Double {
        (0..<4).map { quarters[start.addingTimeInterval(Double($0) * 900)]! }.reduce(0, +) / 4
    }

    /// Band name under the default 0.10/0.20/0.30 thresholds, written out independently.
    static func band(_ price: Double, green: Double = 0.1, yellow: Double = 0.2, orange: Double = 0.3) -> String {
        price <= green ? "green" : price <= yellow ? "yellow" : price <= orange ? "orange" : "red"
    }

    static let hex = ["green": "#34C759", "yellow": "#FFCC00", "orange": "#FF9500", "red": "#FF3B30"]
    static let rgb = ["green": "52,199,89", "yellow": "255,204,0", "orange": "255,149,0", "red": "255,59,48"]
}
