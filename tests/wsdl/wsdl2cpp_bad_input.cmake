# lather-wsdl2cpp on bad input (data/bad): exit status 1, one message on stderr that starts
# with the file:line:column of the culprit, and no output directory.
#   cmake -DTOOL=<lather-wsdl2cpp> -DDATA=<tests/wsdl/data/bad> -DOUT=<scratch dir> -P this
function(expect_refused what expected)
  file(REMOVE_RECURSE ${OUT})
  execute_process(COMMAND ${TOOL} ${ARGN} -o ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${what}: exit status ${rc}, expected 1\nstdout: ${out}\nstderr: ${err}")
  endif()
  string(FIND "${err}" "${expected}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${what}: stderr does not start with\n  ${expected}\nit is\n  ${err}")
  endif()
  if(EXISTS ${OUT})
    message(FATAL_ERROR "${what}: wrote ${OUT}")
  endif()
  message(STATUS "${what}: ${err}")
endfunction()

expect_refused("malformed WSDL" "${DATA}/malformed.wsdl:3:1: malformed XML: "
               ${DATA}/malformed.wsdl)
expect_refused("missing import" "${DATA}/missing-import.wsdl:2:3: missing file: "
               ${DATA}/missing-import.wsdl)
expect_refused("one QName declared twice, differently"
               "${DATA}/twice-2.wsdl:3:5: complexType {urn:x}T is declared again with different content (first at ${DATA}/twice-1.wsdl:3:5;"
               ${DATA}/twice-1.wsdl ${DATA}/twice-2.wsdl)
