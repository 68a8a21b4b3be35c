# fpgamr: the two commands a new user needs are `make run` and `make test` (see README.md).
SHELL := /bin/bash
export PATH := $(CURDIR)/.venv/bin:$(PATH)
MVN := mvn -B -ntp -q
DIGEST ?= 096822475dd517c1089f4b58c7f346ef
BITS ?= 28

.PHONY: deps deps-test build build-run run test bench bench-job bench-balance bench-collector bench-fixed-cost bench-study bench-kernels bench-fpga clean

## deps: install what building and running need (Debian packages); needs root the first time
deps:
	bin/install-deps

## deps-test: also install the test toolchain (QEMU, kernel headers, Yosys, Icarus, Ansible, the Python venv)
deps-test:
	bin/install-deps --test

## build: every Maven module (the native library and FPGA models are built by jni-fpga's build) and
## the class-data sharing archive of bin/fpgamr and the embedded cluster's task JVMs (mr-md5's cds-archive)
build: deps
	$(MVN) -DskipTests install

## build-run: what make run's job needs, no more: the 4-pipeline simulated FPGA only (the tests' 1-pipeline
## model is make build's) and the class-data sharing archive (its training run costs the build an embedded
## cluster's job once; without it the job's launcher, ApplicationMaster and task JVMs read and verify every
## class from the jars: mr-md5/README.md, Start-up)
build-run: deps
	$(MVN) -DskipTests install -Dvsim.pipelines=4

## run: install, build, and run the main job on the embedded cluster at 28 bits
run: build-run
	bin/fpgamr search $(DIGEST) --bits $(BITS)

## test: install the test toolchain, make the ARM nodes' armhf root (bin/armhf-root) and the ARM-FPGA
## nodes' simulated FPGA (the Verilated model cross-built for armhf, in jni-fpga/native/build: built before
## the jar, which then carries it for the deployed ARM-FPGA worker), build, run every test suite
test: deps-test
	bin/armhf-root >/dev/null
	$(MAKE) --no-print-directory -C jni-fpga/native/fpga vsim-libs PLATFORM=linux-armhf VSIM_PIPES=4
	$(MAKE) --no-print-directory build
	bin/run-tests

## bench-job: where the job's time goes: both modes at 2^20, 2^24, 2^28, stage times, records/s,
## the engine's CPU and the framework's, peak memory (a benchmark: figures, no pass/fail)
bench-job: build
	bin/bench-job

## bench-balance: how evenly work falls on unequal nodes: make run's job static and streamed, three
## nodes at 2^30, the bench mode; per node the speed given and the values hashed, the straggler
bench-balance: build
	bin/bench-balance

## bench-collector: the bench job streamed against static splits, side by side on the local runner
## (2^28 32/32 and 2^26 16/16): each figure of both, the ratio, the maps' spill and sort time
bench-collector: build
	bin/bench-collector

## bench-fixed-cost: where make run's job's fixed cost goes: its timeline phase by phase (submission, AM,
## containers, JVMs, task set-up, engine open, hashing, commit), without the class-data archive and as built
## side by side, with issue 40's goals beside the figures (SHAPES=1: a map per core and per FPGA beside the fuller maps;
## CLOSE=1: Hadoop's 400 ms wait for a closed HDFS file beside the embedded cluster's 20 ms;
## COMMIT=1: every task writing a part file and committing beside only the tasks that found a preimage)
bench-fixed-cost: build-run
	bin/bench-fixed-cost

## bench-study: issue 40's goal 4: quick.yml's study timed (at most 6 minutes, the same rows), the time per
## part (each embedded cluster's start and stop, each run, the report) from its progress and results.csv;
## its ARM points need the armhf root and the armhf simulated model in the jar, as make test makes them
bench-study: deps-test
	bin/armhf-root >/dev/null
	$(MAKE) --no-print-directory -C jni-fpga/native/fpga vsim-libs PLATFORM=linux-armhf VSIM_PIPES=4
	$(MAKE) --no-print-directory build
	bin/bench-study

bench: bench-job

bench-kernels: build
	$(MAKE) -C jni-fpga/native bench-kernels

bench-fpga: build
	$(MAKE) -C jni-fpga/native bench-fpga

clean:
	$(MVN) clean
	rm -rf target
