import Foundation

extension CLIFixture {
    /// Starts `mediajob worker` on `store` with a state folder of its own, `name` in the fixture's
    /// folder, as a worker on a machine of its own would have, with more `arguments` if given.
    func startWorker(_ name: String, store: String, slots: Int = 1, lease: String, arguments: [String] = [],
                     environment: [String: String] = [:], launcher: [String] = []) throws -> CLIProcess {
        try CLIProcess(["worker", "--store", store, "--slots", String(slots), "--lease", lease, "--state-dir", folder.path(name)]
                       + arguments, environment: environment, launcher: launcher)
    }
}
