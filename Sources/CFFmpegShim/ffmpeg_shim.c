#include "ffmpeg_shim.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Errors

void shim_strerror(int code, char *buffer, size_t size) {
    if (size == 0) return;
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "FFmpeg error %d", code);
    }
}

// MARK: - Process

void shim_release_freed_memory(void) {
    malloc_trim(0);
}

// MARK: - Log capture

static _Thread_local char last_log[512];
static int capture_level = AV_LOG_ERROR;
static int echo_to_stderr = 0;

static void capture_log(void *object, int level, const char *format, va_list arguments) {
    if (level > capture_level) return;
    if (echo_to_stderr) {
        va_list copy;
        va_copy(copy, arguments);
        av_log_default_callback(object, level, format, copy);
        va_end(copy);
    }
    // "demuxer: message", without FFmpeg's "[name @ 0xaddress]" prefix, whose address changes
    // from run to run.
    char line[sizeof last_log];
    size_t length = 0;
    AVClass *class = object ? *(AVClass **)object : NULL;
    if (class && class->item_name) {
        length = (size_t)snprintf(line, sizeof line, "%s: ", class->item_name(object));
        if (length >= sizeof line) length = 0;
    }
    int print_prefix = 0;
    if (av_log_format_line2(NULL, level, format, arguments, line + length, sizeof line - length, &print_prefix) < 0) {
        return;
    }
    length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' ')) {
        line[--length] = '\0';
    }
    if (length > 0) memcpy(last_log, line, length + 1);
}

void shim_install_log_capture(int level) {
    capture_level = level;
    echo_to_stderr = getenv("MEDIAJOB_FFMPEG_LOG") != NULL;
    av_log_set_level(level);
    av_log_set_callback(capture_log);
}

size_t shim_take_last_log(char *buffer, size_t size) {
    size_t length = strlen(last_log);
    if (size == 0) return 0;
    if (length >= size) length = size - 1;
    memcpy(buffer, last_log, length);
    buffer[length] = '\0';
    last_log[0] = '\0';
    return length;
}

// MARK: - Streams and options

int shim_stream_rotation(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix == NULL || size < 9 * sizeof(int32_t)) return 0;
    double counterclockwise = av_display_rotation_get((const int32_t *)matrix);
    if (isnan(counterclockwise)) return 0;
    long quarters = lround(-counterclockwise / 90.0) % 4;
    return (int)((quarters + 4) % 4) * 90;
}

void shim_set_interrupt(AVFormatContext *context, int (*callback)(void *), void *opaque) {
    context->interrupt_callback.callback = callback;
    context->interrupt_callback.opaque = opaque;
}

// MARK: - Pixels

// Written per pixel size with plain stores: the package's debug builds compile this at -O0.
#define ROTATE_LOOP(BPP)                                                                        \
    for (int y = 0; y < height; y++) {                                                          \
        const uint8_t *in = source + (ptrdiff_t)y * source_stride;                               \
        uint8_t *out;                                                                            \
        ptrdiff_t step;                                                                          \
        switch (turns) {                                                                         \
        case 1: out = destination + (ptrdiff_t)(height - 1 - y) * BPP;                           \
                step = destination_stride; break;                                                \
        case 2: out = destination + (ptrdiff_t)(height - 1 - y) * destination_stride             \
                      + (ptrdiff_t)(width - 1) * BPP;                                            \
                step = -BPP; break;                                                              \
        case 3: out = destination + (ptrdiff_t)(width - 1) * destination_stride + (ptrdiff_t)y * BPP; \
                step = -(ptrdiff_t)destination_stride; break;                                    \
        default: out = destination + (ptrdiff_t)y * destination_stride; step = BPP; break;       \
        }                                                                                        \
        for (int x = 0; x < width; x++, in += BPP, out += step) {                                \
            out[0] = in[0];                                                                      \
            if (BPP == 3) { out[1] = in[1]; out[2] = in[2]; }                                    \
        }                                                                                        \
    }

void shim_rotate_plane(const uint8_t *source, int source_stride, int width, int height,
                       int bytes_per_pixel, uint8_t *destination, int destination_stride,
                       int quarter_turns) {
    int turns = ((quarter_turns % 4) + 4) % 4;
    if (bytes_per_pixel == 1) {
        ROTATE_LOOP(1)
    } else if (bytes_per_pixel == 3) {
        ROTATE_LOOP(3)
    } else {
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int dx, dy;
                switch (turns) {
                case 1: dx = height - 1 - y; dy = x; break;
                case 2: dx = width - 1 - x; dy = height - 1 - y; break;
                case 3: dx = y; dy = width - 1 - x; break;
                default: dx = x; dy = y; break;
                }
                memcpy(destination + (ptrdiff_t)dy * destination_stride + (ptrdiff_t)dx * bytes_per_pixel,
                       source + (ptrdiff_t)y * source_stride + (ptrdiff_t)x * bytes_per_pixel,
                       (size_t)bytes_per_pixel);
            }
        }
    }
}
#undef ROTATE_LOOP

// The colour definition libvips' path uses too: exposure, contrast and saturation composed in
// floating point with no clamping between steps, then rounded half to even and clamped once.
static inline uint8_t to_byte(double value) {
    double r = nearbyint(value);
    return (uint8_t)(r < 0.0 ? 0.0 : (r > 255.0 ? 255.0 : r));
}

void shim_adjust_rgb24(uint8_t *pixels, int stride, int width, int height,
                       double exposure, double contrast, double saturation) {
    // Exposure and contrast act on each channel alone: one table for all 256 inputs.
    double table[256];
    uint8_t rounded[256];
    double gain = exp2(exposure);
    for (int v = 0; v < 256; v++) {
        table[v] = (v * gain - 128.0) * contrast + 128.0;
        rounded[v] = to_byte(table[v]);
    }
    for (int y = 0; y < height; y++) {
        uint8_t *p = pixels + (ptrdiff_t)y * stride;
        uint8_t *end = p + (ptrdiff_t)width * 3;
        if (saturation == 1.0) {
            for (; p < end; p++) *p = rounded[*p];
            continue;
        }
        for (; p < end; p += 3) {
            double r = table[p[0]], g = table[p[1]], b = table[p[2]];
            double luma = 0.299 * r + 0.587 * g + 0.114 * b;
            p[0] = to_byte(luma + (r - luma) * saturation);
            p[1] = to_byte(luma + (g - luma) * saturation);
            p[2] = to_byte(luma + (b - luma) * saturation);
        }
    }
}

double shim_luma_variance_rgb24(const uint8_t *pixels, int stride, int width, int height) {
    if (width <= 0 || height <= 0) return 0.0;
    double sum = 0.0, squares = 0.0;
    for (int y = 0; y < height; y++) {
        const uint8_t *p = pixels + (ptrdiff_t)y * stride;
        for (int x = 0; x < width; x++, p += 3) {
            double luma = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
            sum += luma;
            squares += luma * luma;
        }
    }
    double count = (double)width * (double)height;
    double mean = sum / count;
    double variance = squares / count - mean * mean;
    return variance < 0.0 ? 0.0 : variance;
}
