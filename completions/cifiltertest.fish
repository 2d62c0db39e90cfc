function __cifiltertest_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cifiltertest_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cifiltertest_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cifiltertest_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cifiltertest_parse_tokens -S
    set -l unparsed_tokens (__cifiltertest_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cifiltertest'
        __cifiltertest_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __cifiltertest_parse_subcommand 0 'keys' 'all-categories' 'category=' 'fidelity' 'status=' 'json' 'catalog=' 'version' 'h/help'
        case 'info'
            __cifiltertest_parse_subcommand 1 'json' 'catalog=' 'version' 'h/help'
        case 'render'
            __cifiltertest_parse_subcommand -r 1 'recipe=' 'crop=' 'core-image-version=' 'i/input=+' 'o/output=' 'format=' 'overwrite' 'jobs=' 'shard=' '16bit' 'quality=' 'exact' 'max-pixels=' 'max-memory=' 'time-limit=' 'version' 'h/help'
        case 'animate'
            __cifiltertest_parse_subcommand -r 1 'recipe=' 'crop=' 'core-image-version=' 'i/input=' 'o/output=' 'animate=+' 'frames=' 'fps=' 'ease=' 'y4m' 'chroma=' 'overwrite' 'max-pixels=' 'max-memory=' 'time-limit=' 'version' 'h/help'
        case 'stream'
            __cifiltertest_parse_subcommand -r 1 'recipe=' 'crop=' 'core-image-version=' 'i/input=' 'o/output=' 'matrix=' 'range=' 'output-matrix=' 'output-range=' 'output-chroma=' 'drop' 'queue=' 'max-pixels=' 'max-memory=' 'time-limit=' 'threads=' 'bench' 'frames=' 'size=' 'version' 'h/help'
        case 'bench'
            __cifiltertest_parse_subcommand 0 'image=' 'size=' 'runs=' 'threads=' 'only=' 'json' 'version' 'h/help'
        case 'explore'
            __cifiltertest_parse_subcommand 1 'filter=' 'colors=' 'graphics=' 'recipe=' 'video=' 'bench' 'size=' 'version' 'h/help'
        case 'help'
            __cifiltertest_parse_subcommand -r 1 'version'
        end
    end
end

function __cifiltertest_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cifiltertest_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __cifiltertest_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cifiltertest_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cifiltertest_tokens -p)
    if test -z "$(__cifiltertest_tokens -t)"
        set -l index (count (__cifiltertest_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cifiltertest' -f
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'list' -d 'List the filters by category, optionally with every input key.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'info' -d 'Show everything known about one filter.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'render' -d 'Render a filter (or a chain of filters) to a PNG or JPEG file.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'animate' -d 'Render a filter chain over frames while inputs move between two values: PNG frames, a GIF or Y4M video.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'stream' -d 'Filter a YUV4MPEG2 (Y4M) video stream through a chain or recipe: Y4M in, Y4M out.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'bench' -d 'Measure render speed (median of repeated in-process renders; decoding and encoding excluded).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'explore' -d 'Browse the filters and tweak their inputs with a live preview (the default command).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_positional "cifiltertest" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" keys' -l 'keys' -d 'Show each input: key, type, class, default, range (min/max) and slider range.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" all-categories' -l 'all-categories' -d 'List each filter under every category it belongs to, marking duplicates.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" category' -l 'category' -d 'List every filter of one category (Blur or CICategoryBlur, any case).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" fidelity' -l 'fidelity' -d 'Count the filters per fidelity status: verified (matches a real Apple render), formula (a documented formula), approximate (plausible, no evidence), unavailable (Apple-only).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" status' -l 'status' -d 'With --fidelity (implied): also list the filters of one status, with their evidence.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" json' -l 'json' -d 'Print JSON (its fields are listed above).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" catalog' -l 'catalog' -d 'Read this catalogue file instead of the built-in filters.json.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest info" json' -l 'json' -d 'Print JSON (its fields are listed above).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest info" catalog' -l 'catalog' -d 'Read this catalogue file instead of the built-in filters.json.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest info" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" recipe' -l 'recipe' -d 'A JSON recipe: a list of steps, or {"input": PATH, "crop": [x, y, w, h], "steps": [...]} (-i and --crop replace those).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" crop' -l 'crop' -d 'The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default: the output\'s extent (a stream\'s: the frame); required for infinite outputs.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" core-image-version' -l 'core-image-version' -d 'Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default: the current one.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render"' -l 'input' -s 'i' -d 'The input image (inputImage of the first filter). Repeat it, or quote a pattern (\'photos/*.jpg\'), to render many files into the directory -o names.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" o output' -l 'output' -s 'o' -d 'The output file (.png, .jpg or .jpeg), or a directory for a batch.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" format' -l 'format' -d 'The output format (png or jpeg); default: the output\'s extension (in a batch: each input\'s).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" overwrite' -l 'overwrite' -d 'In a batch, replace output files that exist (default: leave them and report them).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" jobs' -l 'jobs' -d 'Files a batch renders at once (default: one per core).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" shard' -l 'shard' -d 'Render only part I of N of a batch\'s sorted inputs (0 ≤ I < N); auto/N reads I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" 16bit' -l '16bit' -d 'Write a 16-bit linear PNG instead of 8-bit sRGB.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" quality' -l 'quality' -d 'JPEG quality, 1–100.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" exact' -l 'exact' -d 'Render colour filters on 8-bit pictures in floating point throughout (default: per-channel, affine and luminance colour chains by tables, within one level).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" max-pixels' -l 'max-pixels' -d 'The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" max-memory' -l 'max-memory' -d 'The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" time-limit' -l 'time-limit' -d 'The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest render" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" recipe' -l 'recipe' -d 'A JSON recipe: a list of steps, or {"input": PATH, "crop": [x, y, w, h], "steps": [...]} (-i and --crop replace those).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" crop' -l 'crop' -d 'The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default: the output\'s extent (a stream\'s: the frame); required for infinite outputs.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" core-image-version' -l 'core-image-version' -d 'Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default: the current one.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" i input' -l 'input' -s 'i' -d 'The input image (inputImage of the first filter).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" o output' -l 'output' -s 'o' -d 'A directory (PNG frames), a .gif file, or with --y4m a .y4m file or - (stdout).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate"' -l 'animate' -d 'An input to animate, KEY=FROM:TO (repeatable).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" frames' -l 'frames' -d 'The number of frames (the first at FROM, the last at TO).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" fps' -l 'fps' -d 'Frames per second (GIF delays are whole hundredths of a second).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" ease' -l 'ease' -d 'linear or ease-in-out (smoothstep).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" y4m' -l 'y4m' -d 'Write a YUV4MPEG2 stream (to -o FILE.y4m, or - for standard output).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" chroma' -l 'chroma' -d 'Y4M chroma subsampling: 420 or 444.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" overwrite' -l 'overwrite' -d 'Replace existing output files.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" max-pixels' -l 'max-pixels' -d 'The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" max-memory' -l 'max-memory' -d 'The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" time-limit' -l 'time-limit' -d 'The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest animate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" recipe' -l 'recipe' -d 'A JSON recipe: a list of steps, or {"input": PATH, "crop": [x, y, w, h], "steps": [...]} (-i and --crop replace those).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" crop' -l 'crop' -d 'The rectangle to write (of each frame), x,y,width,height (bottom-left origin); default: the output\'s extent (a stream\'s: the frame); required for infinite outputs.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" core-image-version' -l 'core-image-version' -d 'Reproduce an older Core Image, named by the iOS version that shipped it (12, 8.1); default: the current one.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" i input' -l 'input' -s 'i' -d 'The Y4M input file, or - for standard input.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" o output' -l 'output' -s 'o' -d 'The Y4M output file, or - for standard output.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" matrix' -l 'matrix' -d 'Read the input as BT.601 or BT.709 Y\'CbCr (601 or 709; default: 709 for HD, 601 below).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" range' -l 'range' -d 'Read the input as video (16–235) or full (0–255) range (default: its XCOLORRANGE tag, else video).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" output-matrix' -l 'output-matrix' -d 'Write the output in this matrix (601 or 709; default: the input\'s).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" output-range' -l 'output-range' -d 'Write the output in this range (video or full; default: the input\'s).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" output-chroma' -l 'output-chroma' -d 'Write the output with this chroma layout (420jpeg, 420mpeg2, 420paldv, 420, 422, 444, mono; default: the input\'s).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" drop' -l 'drop' -d 'Drop input frames while the render queue is full (live sources); default: wait, losing none.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" queue' -l 'queue' -d 'Frames each queue holds (reader → renderer → writer).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" max-pixels' -l 'max-pixels' -d 'The most pixels the output, a frame or any intermediate image may cover, and an input may declare (default 268435456 = 2^28, or CIFILTERTEST_MAX_PIXELS).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" max-memory' -l 'max-memory' -d 'The most bytes the intermediate images of one render may take together (default 8 GiB, or CIFILTERTEST_MAX_BYTES).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" time-limit' -l 'time-limit' -d 'The most seconds one render (an image, or a frame) may take; 0 for no limit (default 600, or CIFILTERTEST_TIME_LIMIT).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" threads' -l 'threads' -d 'Render threads (default: every core).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" bench' -l 'bench' -d 'Measure frames per second on a synthetic stream held in memory (no input or output).'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" frames' -l 'frames' -d 'With --bench: the number of frames.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" size' -l 'size' -d 'With --bench: the frame size, 1080p, 720p or 4k.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest stream" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" image' -l 'image' -d 'The source image (default: a generated 1920×1080 photo-like test image).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" size' -l 'size' -d 'Frame size when no image is given: 1080p or 4k.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" runs' -l 'runs' -d 'Timed runs per case.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" threads' -l 'threads' -d 'Worker threads (default: every core).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" only' -l 'only' -d 'Only the cases whose name contains this text.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" json' -l 'json' -d 'Print JSON.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest bench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" filter' -l 'filter' -d 'Start on this filter (a Core Image name); with --bench, only these (comma-separated).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" colors' -l 'colors' -d 'Colours: auto (as the terminal announces: NO_COLOR, COLORTERM, terminfo RGB/Tc, *-direct, its colour count), or force truecolor, 256, 16, 8 or none.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" graphics' -l 'graphics' -d 'Preview pixels: auto (a graphics protocol the terminal offers, judged from TERM, TERM_PROGRAM, KITTY_WINDOW_ID and chafa\'s terminal database; symbols inside tmux or screen), or force kitty, sixel, iterm or symbols (character cells).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" recipe' -l 'recipe' -d 'Open a recipe (a JSON file as render --recipe reads, such as an export\'s): every step as an editable step of the chain, the last selected, on its input image (IMAGE replaces it).' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" video' -l 'video' -d 'A Y4M video as the source instead of an image: a file (played at its frame rate, looping) or - for standard input.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" bench' -l 'bench' -d 'Measure keypress-to-preview latency (median and 95th percentile) over the implemented filters.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" size' -l 'size' -d 'Preview size for --bench, in terminal cells.' -rfka ''
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" version' -l 'version' -d 'Show the version.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest explore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cifiltertest' -n '__cifiltertest_should_offer_completions_for_flags_or_options "cifiltertest help" version' -l 'version' -d 'Show the version.'
