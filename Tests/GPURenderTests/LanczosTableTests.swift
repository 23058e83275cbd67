@testable import GPURender
import XCTest

/// The resize's weight tables, as the `lanczos` shader reads them.
final class LanczosTableTests: XCTestCase {
    func testWeightsAreNormalisedAndSizedAsPredicted() {
        for (count, scale) in [(100, 1.0), (427, 1.5), (61, 3.9), (7, 5.7)] {
            let table = LanczosTable(count: count, scale: scale)
            XCTAssertEqual(table.values.count * 4, LanczosTable.byteCount(count: count, scale: scale))
            for output in 0..<count {
                let row = table.values[output * table.stride + 4..<(output + 1) * table.stride]
                XCTAssertEqual(Double(row.reduce(0, +)), 1, accuracy: 1e-5, "scale \(scale), sample \(output)")
            }
        }
    }

    /// The taps cover every source sample the kernel weighs and no more: the samples just before
    /// the first tap and just after the last lie on or past the kernel's edge.
    func testTapsSpanTheKernelExactly() {
        for scale in [0.75, 1.5, 1.875, 2.25, 3.9, 5.7] {
            let table = LanczosTable(count: 50, scale: scale)
            let stretch = max(scale, 1)
            for output in 0..<50 {
                let centre = (Double(output) + 0.5) * scale - 0.5
                let first = Double(table.first(output))
                XCTAssertEqual(LanczosTable.lanczos3((first - 1 - centre) / stretch), 0, "scale \(scale), sample \(output): before")
                XCTAssertEqual(LanczosTable.lanczos3((first + Double(table.taps) - centre) / stretch), 0,
                               "scale \(scale), sample \(output): after")
            }
        }
        XCTAssertEqual(LanczosTable(count: 1, scale: 1.5).taps, 9, "⌈6 × 1.5⌉")
        XCTAssertEqual(LanczosTable(count: 1, scale: 1.875).taps, 12, "⌈6 × 1.875⌉: three texels of weights, not four")
    }

    func testNoReductionCopiesEachSample() {
        let table = LanczosTable(count: 10, scale: 1)
        for output in 0..<10 {
            let row = output * table.stride
            let first = Int(table.values[row])
            XCTAssertEqual(table.values[row + 1..<row + 4], [0, 0, 0], "the first index's texel")
            XCTAssertEqual(table.values[row + 4 + table.taps..<row + table.stride].allSatisfy { $0 == 0 }, true, "padding weighs nothing")
            let weights = table.values[row + 4..<row + 4 + table.taps]
            XCTAssertEqual(table.taps, 1, "one tap: the sample itself")
            XCTAssertEqual(weights.max(), 1, "sample \(output)")
            XCTAssertEqual(first + weights.firstIndex(of: 1)! - (row + 4), output, "the weight sits on the sample itself")
        }
    }
}
