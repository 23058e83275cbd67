/// Options shared by commands.
package enum CommonOptions {
    package static let json = OptionSpec.flag("json", "print JSON (one object per line for events) on standard output")
    package static let stateDir = OptionSpec.option("state-dir", "DIR",
                                            "where jobs are kept (default: $MEDIAJOB_STATE_DIR, else $XDG_STATE_HOME/mediajob)")
    package static let store = OptionSpec.option("store", "URL",
                                         "keep jobs in this PostgreSQL database, shared by many machines (postgresql://…; default: $MEDIAJOB_STORE, else SQLite in the state folder)")
    package static let strategy = OptionSpec.option("strategy", "queue|fail",
                                            "when every job slot is busy: wait in line (queue, default) or give up at once (fail, exit 69)")
    package static let maxJobs = OptionSpec.option("max-jobs", "N",
                                           "jobs that may run at once in this state folder (default: from CPUs and memory)")
    package static let help = OptionSpec.flag("help", short: "h", "show this help")
    package static let maxPixels = OptionSpec.option("max-pixels", "N",
                                             "refuse images and videos with more pixels than this, read from the header (default 268402689)")
    package static let skipBad = OptionSpec.flag("skip-bad", "skip files that cannot be read and complete anyway, listing them")
    package static let gpu = OptionSpec.option("gpu", "auto|on|off",
                                       "render on a Vulkan GPU that passed its probe (auto, default), require one (on, exit 69 without), or never (off)")

    package static let keepProfile = OptionSpec.flag("keep-profile",
                                             "keep photos in their colour space with their ICC profile (default: convert to sRGB)")
    package static let keepMetadata = OptionSpec.flag("keep-metadata",
                                              "keep all photo and video metadata, location and serial numbers included (default: the safe set)")

    package static let verbose = OptionSpec.flag("verbose", short: "v",
                                         "also say where pictures render (GPU or CPU) and why; `mediajob probe` says it too")

    /// The options batch commands (thumbnail, compress) take besides their own.
    package static let batch = [
        OptionSpec.option("output", "DIR", "the folder to create (required)"),
        .flag("overwrite", "replace DIR if it exists"), skipBad, maxPixels, gpu, verbose,
    ] + submitting

    package static let detach = OptionSpec.flag("detach", "store the job, print its id and exit; `mediajob worker` processes run it")
    package static let lease = OptionSpec.option("lease", "SECONDS",
                                         "how long a chunk claimed under a lease is held without renewal (default 30)")

    /// The options every job-running command takes.
    package static let running = [stateDir, store, strategy, maxJobs, json]

    /// The options of commands that submit new work: the running ones, `--detach` and `--lease`.
    package static let submitting = running + [detach, lease]

    /// Where jobs are: the options every command that reads or changes jobs takes.
    package static let jobStore = [stateDir, store]
}
