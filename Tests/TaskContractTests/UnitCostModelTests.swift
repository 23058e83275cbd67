import Foundation
import Testing
import TaskContract

struct UnitCostModelTests {
    @Test func seedsAreTheFirstEstimates() {
        let model = UnitCostModel(seeds: [.render: 2, .encode: 5])
        #expect(model.estimate(for: .render) == 2)
        #expect(model.estimate(for: .encode) == 5)
        #expect(model.estimates == [.render: 2, .encode: 5])
    }

    @Test func unknownStageUsesTheFallback() {
        let model = UnitCostModel(seeds: [.render: 2], fallback: 0.75)
        #expect(model.estimate(for: .package) == 0.75)
        #expect(model.estimate(for: Stage(rawValue: "upload")) == 0.75)
        #expect(UnitCostModel().estimate(for: .render) == 1)
    }

    @Test func invalidSeedsAreDropped() {
        let model = UnitCostModel(seeds: [.render: -1, .encode: .nan, .package: .infinity], fallback: 3)
        #expect(model.estimates.isEmpty)
        #expect(model.estimate(for: .render) == 3)
    }

    @Test func firstMeasurementOfAnUnseededStageBecomesItsEstimate() {
        var model = UnitCostModel(fallback: 1)
        model.observe(4, for: .encode)
        #expect(model.estimate(for: .encode) == 4)
    }

    @Test func movingAverageMovesTowardMeasurements() {
        var model = UnitCostModel(seeds: [.render: 10])
        model.observe(20, for: .render)
        #expect(abs(model.estimate(for: .render) - (10 + UnitCostModel.smoothing * 10)) < 1e-12)
        var previousGap = abs(model.estimate(for: .render) - 20)
        for _ in 0..<30 {
            model.observe(20, for: .render)
            let gap = abs(model.estimate(for: .render) - 20)
            #expect(gap < previousGap)
            previousGap = gap
        }
        #expect(previousGap < 0.01)
    }

    @Test func measurementsOfOneStageLeaveOthersAlone() {
        var model = UnitCostModel(seeds: [.render: 2, .encode: 5])
        model.observe(100, for: .render)
        #expect(model.estimate(for: .encode) == 5)
    }

    @Test(arguments: [-1.0, .nan, .infinity, -.infinity])
    func invalidMeasurementsAreIgnored(_ seconds: Double) {
        var model = UnitCostModel(seeds: [.render: 2])
        model.observe(seconds, for: .render)
        model.observe(seconds, for: .encode)
        #expect(model.estimates == [.render: 2])
    }

    @Test func codableRoundTripKeepsEstimatesKeyedByStageName() throws {
        var model = UnitCostModel(seeds: [.render: 2, .encode: 5], fallback: 1.5)
        model.observe(3, for: Stage(rawValue: "upload"))
        let data = try JSONEncoder().encode(model)
        #expect(try JSONDecoder().decode(UnitCostModel.self, from: data) == model)

        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let estimates = try #require(object["estimates"] as? [String: Double])
        #expect(estimates == ["render": 2, "encode": 5, "upload": 3])
        #expect(object["fallback"] as? Double == 1.5)
    }
}
