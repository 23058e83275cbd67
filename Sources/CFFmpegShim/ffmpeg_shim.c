#include "ffmpeg_shim.h"

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
    char line[sizeof last_log];
    int print_prefix = 1;
    if (av_log_format_line2(object, level, format, arguments, line, sizeof line, &print_prefix) < 0) return;
    size_t length = strlen(line);
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

void shim_rotate_plane(const uint8_t *source, int source_stride, int width, int height,
                       int bytes_per_pixel, uint8_t *destination, int destination_stride,
                       int quarter_turns) {
    int turns = ((quarter_turns % 4) + 4) % 4;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = source + (ptrdiff_t)y * source_stride;
        for (int x = 0; x < width; x++) {
            int dx, dy;
            switch (turns) {
            case 1: dx = height - 1 - y; dy = x; break;              // clockwise
            case 2: dx = width - 1 - x; dy = height - 1 - y; break;
            case 3: dx = y; dy = width - 1 - x; break;               // counterclockwise
            default: dx = x; dy = y; break;
            }
            memcpy(destination + (ptrdiff_t)dy * destination_stride + (ptrdiff_t)dx * bytes_per_pixel,
                   row + (ptrdiff_t)x * bytes_per_pixel, (size_t)bytes_per_pixel);
        }
    }
}

static inline double clamp255(double value) {
    return value < 0.0 ? 0.0 : (value > 255.0 ? 255.0 : value);
}

void shim_adjust_rgb24(uint8_t *pixels, int stride, int width, int height,
                       double exposure, double contrast, double saturation) {
    // Exposure and contrast act on each channel alone: one table for all 256 inputs.
    double table[256];
    double gain = exp2(exposure);
    for (int v = 0; v < 256; v++) {
        double exposed = clamp255(v * gain);
        table[v] = clamp255((exposed - 128.0) * contrast + 128.0);
    }
    for (int y = 0; y < height; y++) {
        uint8_t *p = pixels + (ptrdiff_t)y * stride;
        for (int x = 0; x < width; x++, p += 3) {
            double r = table[p[0]], g = table[p[1]], b = table[p[2]];
            if (saturation != 1.0) {
                double luma = 0.299 * r + 0.587 * g + 0.114 * b;
                r = clamp255(luma + (r - luma) * saturation);
                g = clamp255(luma + (g - luma) * saturation);
                b = clamp255(luma + (b - luma) * saturation);
            }
            p[0] = (uint8_t)floor(r + 0.5);
            p[1] = (uint8_t)floor(g + 0.5);
            p[2] = (uint8_t)floor(b + 0.5);
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
