#compdef cifiltertest

__cifiltertest_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__cifiltertest_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __cifiltertest_complete "${completions[@]:0:-1}"
    fi
}

__cifiltertest_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_cifiltertest() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List the filters by category, optionally with every input key.'
            'info:Show everything known about one filter.'
            'render:Render a filter (or a chain of filters) to a PNG or JPEG file.'
            'animate:Render a filter chain over frames while inputs move between two values: PNG frames, a GIF or Y4M video.'
            'stream:Filter a YUV4MPEG2 (Y4M) video stream through a chain or recipe: Y4M in, Y4M out.'
            'bench:Measure render speed (median of repeated in-process renders; decoding and encoding excluded).'
            'explore:Browse the filters and tweak their inputs with a live preview (the default command).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|info|render|animate|stream|bench|explore|help)
            "_cifiltertest_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_cifiltertest_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--keys[Show each input\: key, type, class, default, range (min/max) and slider range.]'
        '--all-categories[List each filter under every category it belongs to, marking duplicates.]'
        '--category[List every filter of one category (Blur or CICategoryBlur, any case).]:name:'
        '--fidelity[Count the filters per fidelity status\: verified (matches a real Apple render), formula (a documented formula), approximate (plausible, no evidence), unavailable (Apple-only).]'
        '--status[With --fidelity (implied)\: also list the filters of one status, with their evidence.]:status:'
        '--json[Print JSON (its fields are listed above).]'
        '--catalog[Read this catalogue file instead of the built-in filters.json.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_info() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--json[Print JSON (its fields are listed above).]'
        '--catalog[Read this catalogue file instead of the built-in filters.json.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_render() {
    local -i ret=1
    local -ar arg_specs=(
        '*:steps:'
        '--recipe[A JSON recipe\: a list of steps, or {"input"\: PATH, "crop"\: \[x, y, w, h\], "steps"\: \[...\]} (-i and --crop replace those).]:file:'
        '--crop[The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default\: the output'\''s extent (a stream'\''s\: the frame); required for infinite outputs.]:x,y,width,height:'
        '--core-image-version[Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default\: the current one.]:N:'
        '*'{--input,-i}'[The input image (inputImage of the first filter). Repeat it, or quote a pattern ('\''photos/*.jpg'\''), to render many files into the directory -o names.]:file or pattern:'
        '(--output -o)'{--output,-o}'[The output file (.png, .jpg or .jpeg), or a directory for a batch.]:output:'
        '--format[The output format (png or jpeg); default\: the output'\''s extension (in a batch\: each input'\''s).]:format:'
        '--overwrite[In a batch, replace output files that exist (default\: leave them and report them).]'
        '--jobs[Files a batch renders at once (default\: one per core).]:n:'
        '--shard[Render only part I of N of a batch'\''s sorted inputs (0 ≤ I < N); auto/N reads I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.]:I/N:'
        '--16bit[Write a 16-bit linear PNG instead of 8-bit sRGB.]'
        '--quality[JPEG quality, 1–100.]:quality:'
        '--exact[Render colour filters on 8-bit pictures in floating point throughout (default\: per-channel, affine and luminance colour chains by tables, within one level).]'
        '--max-pixels[The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).]:n:'
        '--max-memory[The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).]:bytes:'
        '--time-limit[The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).]:seconds:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_animate() {
    local -i ret=1
    local -ar arg_specs=(
        '*:steps:'
        '--recipe[A JSON recipe\: a list of steps, or {"input"\: PATH, "crop"\: \[x, y, w, h\], "steps"\: \[...\]} (-i and --crop replace those).]:file:'
        '--crop[The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default\: the output'\''s extent (a stream'\''s\: the frame); required for infinite outputs.]:x,y,width,height:'
        '--core-image-version[Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default\: the current one.]:N:'
        '(--input -i)'{--input,-i}'[The input image (inputImage of the first filter).]:input:'
        '(--output -o)'{--output,-o}'[A directory (PNG frames), a .gif file, or with --y4m a .y4m file or - (stdout).]:output:'
        '*--animate[An input to animate, KEY=FROM\:TO (repeatable).]:KEY=FROM\:TO:'
        '--frames[The number of frames (the first at FROM, the last at TO).]:frames:'
        '--fps[Frames per second (GIF delays are whole hundredths of a second).]:fps:'
        '--ease[linear or ease-in-out (smoothstep).]:ease:'
        '--y4m[Write a YUV4MPEG2 stream (to -o FILE.y4m, or - for standard output).]'
        '--chroma[Y4M chroma subsampling\: 420 or 444.]:chroma:'
        '--overwrite[Replace existing output files.]'
        '--max-pixels[The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).]:n:'
        '--max-memory[The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).]:bytes:'
        '--time-limit[The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).]:seconds:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_stream() {
    local -i ret=1
    local -ar arg_specs=(
        '*:steps:'
        '--recipe[A JSON recipe\: a list of steps, or {"input"\: PATH, "crop"\: \[x, y, w, h\], "steps"\: \[...\]} (-i and --crop replace those).]:file:'
        '--crop[The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default\: the output'\''s extent (a stream'\''s\: the frame); required for infinite outputs.]:x,y,width,height:'
        '--core-image-version[Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default\: the current one.]:N:'
        '(--input -i)'{--input,-i}'[The Y4M input file, or - for standard input.]:input:'
        '(--output -o)'{--output,-o}'[The Y4M output file, or - for standard output.]:output:'
        '--matrix[Read the input as BT.601 or BT.709 Y'\''CbCr (601 or 709; default\: 709 for HD, 601 below).]:matrix:'
        '--range[Read the input as video (16–235) or full (0–255) range (default\: its XCOLORRANGE tag, else video).]:range:'
        '--output-matrix[Write the output in this matrix (601 or 709; default\: the input'\''s).]:output-matrix:'
        '--output-range[Write the output in this range (video or full; default\: the input'\''s).]:output-range:'
        '--output-chroma[Write the output with this chroma layout (420jpeg, 420mpeg2, 420paldv, 420, 422, 444, mono; default\: the input'\''s).]:output-chroma:'
        '--drop[Drop input frames while the render queue is full (live sources); default\: wait, losing none.]'
        '--queue[Frames each queue holds (reader → renderer → writer).]:queue:'
        '--max-pixels[The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).]:n:'
        '--max-memory[The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).]:bytes:'
        '--time-limit[The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).]:seconds:'
        '--threads[Render threads (default\: every core).]:n:'
        '--bench[Measure frames per second on a synthetic stream held in memory (no input or output).]'
        '--frames[With --bench\: the number of frames.]:frames:'
        '--size[With --bench\: the frame size, 1080p, 720p or 4k.]:size:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_bench() {
    local -i ret=1
    local -ar arg_specs=(
        '--image[The source image (default\: a generated 1920×1080 photo-like test image).]:image:'
        '--size[Frame size when no image is given\: 1080p or 4k.]:size:'
        '--runs[Timed runs per case.]:runs:'
        '--threads[Worker threads (default\: every core).]:threads:'
        '--only[Only the cases whose name contains this text.]:only:'
        '--json[Print JSON.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_explore() {
    local -i ret=1
    local -ar arg_specs=(
        ':image:'
        '--filter[Start on this filter (a Core Image name); with --bench, only these (comma-separated).]:name:'
        '--colors[Colours\: auto (as the terminal announces\: NO_COLOR, COLORTERM, terminfo RGB/Tc, *-direct, its colour count), or force truecolor, 256, 16, 8 or none.]:depth:'
        '--graphics[Preview pixels\: auto (a graphics protocol the terminal offers, judged from TERM, TERM_PROGRAM, KITTY_WINDOW_ID and chafa'\''s terminal database; symbols inside tmux or screen), or force kitty, sixel, iterm or symbols (character cells).]:protocol:'
        '--recipe[Open a recipe (a JSON file as render --recipe reads, such as an export'\''s)\: every step as an editable step of the chain, the last selected, on its input image (IMAGE replaces it).]:file:'
        '--video[A Y4M video as the source instead of an image\: a file (played at its frame rate, looping) or - for standard input.]:path:'
        '--bench[Measure keypress-to-preview latency (median and 95th percentile) over the implemented filters.]'
        '--size[Preview size for --bench, in terminal cells.]:COLSxROWS:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_cifiltertest_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _cifiltertest ]]; then
    _cifiltertest "${@}"
else
    compdef _cifiltertest cifiltertest
fi
