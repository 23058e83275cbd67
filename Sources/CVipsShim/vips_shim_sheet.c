// Contact sheets: images joined on a grid of squares in one operation.
#include "vips_shim.h"

#include <string.h>

// Where each image's pixels go on the sheet, and the background's pixel.
typedef struct {
    int n;
    VipsRect *places;
    VipsPel ink[16];
} ShimSheet;

// Fills `out` with the background, then copies in the part of each image that falls on it.
static int shim_sheet_gen(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) a;
    (void) stop;
    VipsRegion **in = (VipsRegion **) seq;
    ShimSheet *sheet = (ShimSheet *) b;
    const VipsRect *area = &out->valid;
    size_t pixel = VIPS_IMAGE_SIZEOF_PEL(out->im);
    VipsPel *first = VIPS_REGION_ADDR(out, area->left, area->top);
    for (int x = 0; x < area->width; x++)
        memcpy(first + x * pixel, sheet->ink, pixel);
    for (int y = area->top + 1; y < VIPS_RECT_BOTTOM(area); y++)
        memcpy(VIPS_REGION_ADDR(out, area->left, y), first, area->width * pixel);
    for (int i = 0; i < sheet->n; i++) {
        VipsRect overlap;
        vips_rect_intersectrect(area, &sheet->places[i], &overlap);
        if (vips_rect_isempty(&overlap))
            continue;
        VipsRect wanted = overlap;
        wanted.left -= sheet->places[i].left;
        wanted.top -= sheet->places[i].top;
        if (vips_region_prepare(in[i], &wanted))
            return -1;
        for (int y = 0; y < overlap.height; y++)
            memcpy(VIPS_REGION_ADDR(out, overlap.left, overlap.top + y),
                   VIPS_REGION_ADDR(in[i], wanted.left, wanted.top + y), overlap.width * pixel);
    }
    return 0;
}

// The background's pixel in images like `like`, as libvips makes it for an embed: one evaluation.
static int shim_sheet_ink(VipsImage *like, const double *background, int count, VipsPel *ink) {
    VipsImage *dot = NULL, *padded = NULL;
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int result = -1;
    if (!vips_black(&dot, 1, 1, "bands", like->Bands, NULL) &&
        !vips_embed(dot, &padded, 1, 0, 2, 1, "extend", VIPS_EXTEND_BACKGROUND, "background", colour, NULL)) {
        size_t length = 0;
        VipsPel *pixels = vips_image_write_to_memory(padded, &length);
        if (pixels && length == 2 * VIPS_IMAGE_SIZEOF_PEL(like)) {
            memcpy(ink, pixels, VIPS_IMAGE_SIZEOF_PEL(like));
            result = 0;
        } else if (pixels) {
            vips_error("shim_sheet", "%s", "the background colour does not fit the images");
        }
        g_free(pixels);
    }
    VIPS_UNREF(padded);
    VIPS_UNREF(dot);
    vips_area_unref(VIPS_AREA(colour));
    return result;
}

int shim_sheet(VipsImage **in, int n, VipsImage **out, int across, int spacing, int box,
               const double *background, int count) {
    if (n < 1 || across < 1 || spacing < 0 || box < 1 || (count != 1 && count != in[0]->Bands)) {
        vips_error("shim_sheet", "%s", "a sheet needs images, 1 or more across, a box and a background colour");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (in[i]->BandFmt != VIPS_FORMAT_UCHAR || in[i]->Bands != in[0]->Bands || in[i]->Bands > 4 ||
            in[i]->Coding != VIPS_CODING_NONE || in[i]->Xsize > box || in[i]->Ysize > box) {
            vips_error("shim_sheet", "image %d is not 8-bit with %d bands and at most %d pixels square", i,
                       in[0]->Bands, box);
            return -1;
        }
    }
    VipsImage *sheet_image = vips_image_new();
    ShimSheet *sheet = VIPS_NEW(VIPS_OBJECT(sheet_image), ShimSheet);
    VipsImage **inputs = VIPS_ARRAY(VIPS_OBJECT(sheet_image), n + 1, VipsImage *);
    VipsRect *places = VIPS_ARRAY(VIPS_OBJECT(sheet_image), n, VipsRect);
    if (!sheet || !inputs || !places || shim_sheet_ink(in[0], background, count, sheet->ink)) {
        g_object_unref(sheet_image);
        return -1;
    }
    int down = (n + across - 1) / across;
    for (int i = 0; i < n; i++) {
        // The output holds its inputs for as long as it can be evaluated.
        inputs[i] = in[i];
        g_object_ref(in[i]);
        vips_object_local(sheet_image, in[i]);
        places[i].left = (i % across) * (box + spacing) + (box - in[i]->Xsize) / 2;
        places[i].top = (i / across) * (box + spacing) + (box - in[i]->Ysize) / 2;
        places[i].width = in[i]->Xsize;
        places[i].height = in[i]->Ysize;
    }
    inputs[n] = NULL;
    sheet->n = n;
    sheet->places = places;
    if (vips_image_pipeline_array(sheet_image, VIPS_DEMAND_STYLE_THINSTRIP, inputs)) {
        g_object_unref(sheet_image);
        return -1;
    }
    sheet_image->Xsize = box * across + spacing * (across - 1);
    sheet_image->Ysize = box * down + spacing * (down - 1);
    if (vips_image_generate(sheet_image, vips_start_many, shim_sheet_gen, vips_stop_many, inputs, sheet)) {
        g_object_unref(sheet_image);
        return -1;
    }
    *out = sheet_image;
    return 0;
}
