# Run at build time (cmake -P) after a doctest executable is linked: lists its test cases and
# writes a CTest file registering each case as a test of its own (ctest -R/-L select cases).
# Names are written as bracket arguments, so ';', '"' and '\' in a name need no escaping;
# doctest splits filters at ',', which is escaped; a filter that runs no case fails. doctest's own doctest_discover_tests splits
# names at ';' (27 of our cases have one), hence this script.
#
# -D EXE=executable -D OUT=file to write -D LABELS=label -D SOURCE_DIR=project source dir
execute_process(COMMAND "${EXE}" --list-test-cases --no-version=true
                OUTPUT_VARIABLE listing RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${EXE} --list-test-cases failed (${result}): ${listing}")
endif()
string(REPLACE ";" "<semicolon>" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "" OR line MATCHES "^\\[doctest\\]" OR line MATCHES "^=+$")
    continue()
  endif()
  string(REPLACE "<semicolon>" ";" name "${line}")
  string(REPLACE "," "\\," filter "${name}")
  get_filename_component(target "${EXE}" NAME)
  string(APPEND script
    "add_test([==[${target}: ${name}]==] [==[${EXE}]==] [==[--test-case=${filter}]==] --no-version=true)\n"
    "set_tests_properties([==[${target}: ${name}]==] PROPERTIES LABELS [==[${LABELS}]==]"
    " ENVIRONMENT [==[CANON_SOURCE_DIR=${SOURCE_DIR}]==]"
    " FAIL_REGULAR_EXPRESSION [==[test cases: +0 \\|]==])\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${EXE} lists no test cases")
endif()
file(WRITE "${OUT}" "${script}")
