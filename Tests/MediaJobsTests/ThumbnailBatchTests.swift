@testable import MediaJobs
@testable import PhotoJobs
import Testing

@Suite struct ThumbnailBatchTests {
    private func items(_ sizes: [Int64]) -> [InputItem] {
        sizes.enumerated().map { InputItem(path: "/p/\($0.offset).jpg", name: "\($0.offset)", size: $0.element) }
    }

    @Test func theLargestFilesRunFirstAndTheSmallestFillTheEnd() {
        // Input order grows in size, as the bench's photos do: the largest batch used to come last.
        let sizes: [Int64] = (0..<20).map { Int64($0 + 1) << 16 }
        let batches = ThumbnailJob.batches(of: items(sizes))
        #expect(batches == [Array((12..<20).reversed()), Array((4..<12).reversed()), Array((0..<4).reversed())])
    }

    @Test func batchesKeepTheirBoundsAndEveryItemRunsOnce() {
        let sizes: [Int64] = [5, 40 << 20, 30 << 20, 7, 7, 1, 90 << 20, 3, 2, 2, 2, 2, 2, 2]
        let batches = ThumbnailJob.batches(of: items(sizes))
        #expect(batches.flatMap { $0 }.sorted() == Array(sizes.indices))
        for batch in batches {
            #expect(batch.count <= ThumbnailJob.batchItems)
            #expect(batch.count == 1 || batch.map { sizes[$0] }.reduce(0, +) <= ThumbnailJob.batchBytes)
        }
        #expect(batches.first == [6]) // 90 MiB: alone, and first
        #expect(batches[1] == [1]) // 40 MiB and 30 MiB do not share a batch of at most 64 MiB
        #expect(batches[2].first == 2)
        #expect(batches[2][1...] == [3, 4, 0, 7, 8, 9, 10]) // ties keep the input order
    }
}
