#!/bin/bash

__cifiltertest_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__cifiltertest_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__cifiltertest_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__cifiltertest_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_cifiltertest() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __cifiltertest_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|info|render|animate|stream|bench|explore|help)
        # Offer subcommand argument completions
        "_cifiltertest_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list info render animate stream bench explore help' -- "${cur}"))
        ;;
    esac
}

_cifiltertest_list() {
    repeating_flags=()
    non_repeating_flags=(--keys --all-categories --fidelity --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--category --status --catalog)
    __cifiltertest_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--category')
        return
        ;;
    '--status')
        return
        ;;
    '--catalog')
        return
        ;;
    esac
}

_cifiltertest_info() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--catalog)
    __cifiltertest_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    esac
}

_cifiltertest_render() {
    repeating_flags=()
    non_repeating_flags=(--overwrite --16bit --exact --version -h --help)
    repeating_options=(--input -i)
    non_repeating_options=(--recipe --crop --core-image-version --output -o --format --jobs --shard --quality --max-pixels --max-memory --time-limit)
    __cifiltertest_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--recipe')
        return
        ;;
    '--crop')
        return
        ;;
    '--core-image-version')
        return
        ;;
    '--input'|'-i')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--format')
        return
        ;;
    '--jobs')
        return
        ;;
    '--shard')
        return
        ;;
    '--quality')
        return
        ;;
    '--max-pixels')
        return
        ;;
    '--max-memory')
        return
        ;;
    '--time-limit')
        return
        ;;
    esac
}

_cifiltertest_animate() {
    repeating_flags=()
    non_repeating_flags=(--y4m --overwrite --version -h --help)
    repeating_options=(--animate)
    non_repeating_options=(--recipe --crop --core-image-version --input -i --output -o --frames --fps --ease --chroma --max-pixels --max-memory --time-limit)
    __cifiltertest_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--recipe')
        return
        ;;
    '--crop')
        return
        ;;
    '--core-image-version')
        return
        ;;
    '--input'|'-i')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--animate')
        return
        ;;
    '--frames')
        return
        ;;
    '--fps')
        return
        ;;
    '--ease')
        return
        ;;
    '--chroma')
        return
        ;;
    '--max-pixels')
        return
        ;;
    '--max-memory')
        return
        ;;
    '--time-limit')
        return
        ;;
    esac
}

_cifiltertest_stream() {
    repeating_flags=()
    non_repeating_flags=(--drop --bench --version -h --help)
    repeating_options=()
    non_repeating_options=(--recipe --crop --core-image-version --input -i --output -o --matrix --range --output-matrix --output-range --output-chroma --queue --max-pixels --max-memory --time-limit --threads --frames --size)
    __cifiltertest_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--recipe')
        return
        ;;
    '--crop')
        return
        ;;
    '--core-image-version')
        return
        ;;
    '--input'|'-i')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--matrix')
        return
        ;;
    '--range')
        return
        ;;
    '--output-matrix')
        return
        ;;
    '--output-range')
        return
        ;;
    '--output-chroma')
        return
        ;;
    '--queue')
        return
        ;;
    '--max-pixels')
        return
        ;;
    '--max-memory')
        return
        ;;
    '--time-limit')
        return
        ;;
    '--threads')
        return
        ;;
    '--frames')
        return
        ;;
    '--size')
        return
        ;;
    esac
}

_cifiltertest_bench() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--image --size --runs --threads --only)
    __cifiltertest_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--image')
        return
        ;;
    '--size')
        return
        ;;
    '--runs')
        return
        ;;
    '--threads')
        return
        ;;
    '--only')
        return
        ;;
    esac
}

_cifiltertest_explore() {
    repeating_flags=()
    non_repeating_flags=(--bench --version -h --help)
    repeating_options=()
    non_repeating_options=(--filter --colors --graphics --recipe --video --size)
    __cifiltertest_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--filter')
        return
        ;;
    '--colors')
        return
        ;;
    '--graphics')
        return
        ;;
    '--recipe')
        return
        ;;
    '--video')
        return
        ;;
    '--size')
        return
        ;;
    esac
}

_cifiltertest_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __cifiltertest_offer_flags_options -1
}

complete -o filenames -F _cifiltertest cifiltertest
