#!/bin/sh
# Builds the .NET port (AceMQ.Amqp.RetryPolicy.dll), its adapter
# (RetryPolicyAdapter.exe) and its unit test (RetryPolicyTests.exe) with
# Mono's C# compiler into OUT_DIR, outside the source tree.
#
#   sh conformance/adapters/dotnet/build.sh OUT_DIR     (MCS=/path/to/mcs to choose the compiler)
#   sh conformance/adapters/dotnet/build.sh OUT_DIR adapter   (the port and adapter only: a
#                                                  port mutant needs no test, and mcs's third
#                                                  start is a third of its build)
set -eu
out=${1:?usage: build.sh OUT_DIR [adapter]}
what=${2:-all}
here=$(cd "$(dirname "$0")" && pwd)
mcs=${MCS:-mcs}
mkdir -p "$out"
flags="-optimize+ -warn:4 -warnaserror+ -nologo -r:System.Numerics.dll"
"$mcs" $flags -target:library -out:"$out/AceMQ.Amqp.RetryPolicy.dll" \
  "$here/src/RetryPolicy.cs" "$here/src/RubyRandom.cs" "$here/src/DefaultSource.cs" "$here/src/DoubleText.cs"
"$mcs" $flags -r:"$out/AceMQ.Amqp.RetryPolicy.dll" -out:"$out/RetryPolicyAdapter.exe" \
  "$here/adapter/DecimalParser.cs" "$here/adapter/Json.cs" "$here/adapter/Answer.cs" \
  "$here/adapter/Protocol.cs" "$here/adapter/Program.cs"
[ "$what" = adapter ] && exit 0
"$mcs" $flags -r:"$out/AceMQ.Amqp.RetryPolicy.dll" -r:"$out/RetryPolicyAdapter.exe" \
  -out:"$out/RetryPolicyTests.exe" "$here/tests/Tests.cs"
