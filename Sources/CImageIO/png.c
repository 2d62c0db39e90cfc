#include "cimageio.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size, offset;
    char message[200];
    char icc_problem[160];
} png_source;

static void on_png_error(png_structp png, png_const_charp message) {
    png_source *source = (png_source *)png_get_error_ptr(png);
    snprintf(source->message, sizeof source->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) {
    // Warnings are recovered from; the one kept is a dropped colour profile, which the caller reports.
    png_source *source = (png_source *)png_get_error_ptr(png);
    if (strstr(message, "iCCP") && !source->icc_problem[0]) snprintf(source->icc_problem, sizeof source->icc_problem, "%s", message);
}

static void read_from_memory(png_structp png, png_bytep target, png_size_t count) {
    png_source *source = (png_source *)png_get_io_ptr(png);
    if (source->size - source->offset < count) png_error(png, "the file is truncated");
    memcpy(target, source->data + source->offset, count);
    source->offset += count;
}

int cimageio_decode_png(const void *data, size_t size, unsigned long long max_pixels, cimageio_image *out) {
    memset(out, 0, sizeof *out);
    png_source source = { data, size, 0, {0}, {0} };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        snprintf(out->error, sizeof out->error, "out of memory");
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int image_read = 0;
    if (setjmp(png_jmpbuf(png))) {
        // An error after the last row (a damaged chunk after the image data) costs nothing: keep the image.
        if (!image_read) {
            snprintf(out->error, sizeof out->error, "%s", source.message);
            free(pixels);
            free(rows);
            png_destroy_read_struct(&png, &info, NULL);
            return 1;
        }
        goto done;
    }
    png_set_read_fn(png, &source, read_from_memory);
    // The size limit is ours (below), made before allocating; libpng's own default stops at 1,000,000 per side.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_benign_errors(png, 1);
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &color_type, &interlace, NULL, NULL);
    out->width = (int)width;
    out->height = (int)height;
    out->bit_depth = depth;
    out->declared_pixels = (unsigned long long)width * height;
    if (out->declared_pixels > max_pixels) {
        out->too_large = 1;
        snprintf(source.message, sizeof source.message, "too large");
        png_longjmp(png, 1);
    }
    // Deflate shrinks data at most about 1032 to 1: a file far smaller than its rows cannot hold them.
    int channels = png_get_channels(png, info);
    unsigned long long raw = (unsigned long long)height * (1 + ((unsigned long long)width * channels * depth + 7) / 8);
    if ((unsigned long long)size * 1100 < raw) {
        snprintf(source.message, sizeof source.message,
                 "the file (%zu bytes) is too small for the %ux%u pixels it declares: it is truncated or damaged",
                 size, width, height);
        png_longjmp(png, 1);
    }
    out->color_model = (color_type & PNG_COLOR_MASK_COLOR) ? CIMAGEIO_RGB : CIMAGEIO_GRAY;
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    out->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || has_trns;

    // Metadata: colour chunks, profile, EXIF, resolution.
    int intent;
    out->srgb_chunk = png_get_sRGB(png, info, &intent) != 0;
    double gamma;
    if (png_get_gAMA(png, info, &gamma)) out->gamma = gamma;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) && profile_length > 0) {
        out->icc = malloc(profile_length);
        if (out->icc) {
            memcpy(out->icc, profile, profile_length);
            out->icc_length = profile_length;
        }
        snprintf(out->icc_name, sizeof out->icc_name, "%s", name ? name : "");
    }
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_length, &exif) && exif && exif_length > 0) {
        out->exif = malloc(exif_length);
        if (out->exif) {
            memcpy(out->exif, exif, exif_length);
            out->exif_length = exif_length;
        }
    }
    png_uint_32 res_x, res_y;
    int unit;
    if (png_get_pHYs(png, info, &res_x, &res_y, &unit) && unit == PNG_RESOLUTION_METER) {
        out->dpi_x = res_x * 0.0254;
        out->dpi_y = res_y * 0.0254;
    }

    // Everything becomes RGBA at the file's precision (8 or 16 bits), values as encoded.
    int sixteen = depth == 16;
    out->is16bit = sixteen;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (!out->has_alpha) png_set_add_alpha(png, sixteen ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    if (sixteen) {
        unsigned short probe = 1;
        if (*(unsigned char *)&probe == 1) png_set_swap(png);  // PNG is big-endian
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = (size_t)width * 4 * (sixteen ? 2 : 1);
    if (png_get_rowbytes(png, info) != row_bytes) {
        snprintf(source.message, sizeof source.message, "unsupported PNG layout");
        png_longjmp(png, 1);
    }
    pixels = malloc(row_bytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        snprintf(source.message, sizeof source.message, "out of memory for %ux%u pixels", width, height);
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    image_read = 1;
    png_read_end(png, NULL);
done:
    free(rows);
    snprintf(out->icc_problem, sizeof out->icc_problem, "%s", source.icc_problem);
    out->pixels = pixels;
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int cimageio_encode_png(const void *rgba, int width, int height, int is16bit, cimageio_buffer *out, char error[256]) {
    out->data = NULL;
    out->size = 0;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = is16bit ? PNG_FORMAT_LINEAR_RGB_ALPHA : PNG_FORMAT_RGBA;
    // One compression pass into a buffer of the largest size the PNG can have (libpng's bound; only the pages
    // written are touched), then trimmed: asking libpng for the size first compresses the whole image twice.
    png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(image);
    out->data = malloc(size ? size : 1);
    if (!out->data) {
        snprintf(error, 256, "out of memory for the encoded image (%zu bytes)", (size_t)size);
        return 1;
    }
    if (!png_image_write_to_memory(&image, out->data, &size, 0, rgba, 0, NULL)) {
        snprintf(error, 256, "%s", image.message);
        png_image_free(&image);
        free(out->data);
        out->data = NULL;
        return 1;
    }
    void *trimmed = realloc(out->data, size ? size : 1);
    if (trimmed) out->data = trimmed;
    out->size = size;
    png_image_free(&image);
    return 0;
}

void cimageio_free(cimageio_image *image) {
    free(image->pixels);
    free(image->icc);
    free(image->exif);
    image->pixels = NULL;
    image->icc = NULL;
    image->exif = NULL;
}

void cimageio_buffer_free(cimageio_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}
