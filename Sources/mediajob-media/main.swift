import Foundation
import MediaCommands
import PhotoCommands

// mediajob-media: every command, the media ones with the media libraries. `mediajob` hands the
// media commands to it (MediaProgram); it runs on its own just as well.

// libarchive writes zip entry times through localtime(): pin the zone so that the same export
// makes the same bytes on every machine. Nothing the program shows depends on the local zone.
setenv("TZ", "UTC", 1)
tzset()
exit(await MediaProgramMain.run(MediaCommands()))
