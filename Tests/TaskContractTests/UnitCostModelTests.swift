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

    @Test func theCostOfWorkIsTheStagesSecondsPerUnitTimesTheWork() {
        let model = UnitCostModel(seeds: [.encode: 0.25], fallback: 2)
        #expect(model.cost(of: 12, in: .encode) == 3)
        #expect(model.cost(of: 12, in: .render) == 24)
    }

    @Test func aFirstMeasurementIsReadPerUnitOfWork() {
        var model = UnitCostModel()
        model.observe(6, work: 12, for: .encode)
        #expect(model.estimate(for: .encode) == 0.5)
        #expect(model.weights[.encode] == 12)
    }

    @Test func aSeededEstimateWeighsAsMuchAsTheFirstChunkMeasured() {
        // Seed 1 s per unit; a chunk of 4 units took 8 s (2 s per unit): the plain 30 % step.
        var model = UnitCostModel(seeds: [.render: 1])
        model.observe(8, work: 4, for: .render)
        #expect(abs(model.estimate(for: .render) - 1.3) < 1e-12)
        #expect(abs(model.weights[.render]! - 4) < 1e-12)
    }

    @Test func aSmallChunkMovesTheEstimateLessThanALargeOne() {
        // Learned 1 s per unit over 10 units of work.
        var learned = UnitCostModel()
        learned.observe(10, work: 10, for: .encode)
        var small = learned, large = learned
        // Both measured 5 s per unit: 0.1 units in 0.5 s, and 30 units in 150 s.
        small.observe(0.5, work: 0.1, for: .encode)
        large.observe(150, work: 30, for: .encode)
        // Hand-computed: kept = 0.7 · 10 = 7;  small: (7 · 1 + 0.3 · 0.5) / (7 + 0.03) = 7.15 / 7.03;
        // large: (7 · 1 + 0.3 · 150) / (7 + 9) = 52 / 16.
        #expect(abs(small.estimate(for: .encode) - 7.15 / 7.03) < 1e-12)
        #expect(abs(large.estimate(for: .encode) - 3.25) < 1e-12)
        #expect(abs(large.weights[.encode]! - 16) < 1e-12)
    }

    @Test(arguments: [0.0, -2, .nan, .infinity])
    func measurementsWithoutPositiveWorkAreIgnored(_ work: Double) {
        var model = UnitCostModel(seeds: [.render: 2])
        model.observe(5, work: work, for: .render)
        #expect(model.estimates == [.render: 2])
        #expect(model.weights.isEmpty)
    }

    @Test func codableRoundTripKeepsEstimatesKeyedByStageName() throws {
        var model = UnitCostModel(seeds: [.render: 2, .encode: 5], fallback: 1.5)
        model.observe(3, for: Stage(rawValue: "upload"))
        let data = try JSONEncoder().encode(model)
        #expect(try JSONDecoder().decode(UnitCostModel.self, from: data) == model)

        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let estimates = try #require(object["estimates"] as? [String: Double])
        #expect(estimates == ["render": 2, "encode": 5, "upload": 3])
        #expect(object["weights"] as? [String: Double] == ["upload": 1])
        #expect(object["fallback"] as? Double == 1.5)
    }

    @Test func aModelStoredBeforeWeightsDecodesWithEveryEstimateAsIfSeeded() throws {
        let stored = Data(#"{"estimates":{"encode":4},"fallback":1}"#.utf8)
        var model = try JSONDecoder().decode(UnitCostModel.self, from: stored)
        #expect(model == UnitCostModel(seeds: [.encode: 4]))
        model.observe(10, work: 2, for: .encode)
        #expect(abs(model.estimate(for: .encode) - 4.3) < 1e-12)
    }
}
