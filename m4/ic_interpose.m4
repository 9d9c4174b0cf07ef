# ic_interpose.m4 -- configure support of the PMPI interposition library
# (src/interpose/) and its tests (tests/interpose/).
#
# IC_INTERPOSE (after IC_MPI_CHECK and IC_WARNINGS):
#   - FC: the MPI Fortran compiler wrapper that belongs to CC (mpicc ->
#     mpifort, mpicc.mpich -> mpifort.mpich, DIR/mpicc -> DIR/mpifort; FC=...
#     on the command line wins; --disable-fortran: none).  It only builds the
#     Fortran test programs, with rules of their own (the library's Fortran
#     entry points are C), so neither AC_PROG_FC nor libtool's Fortran
#     support is involved.  Without it the Fortran tests are skipped;
#   - which Fortran bindings FC offers: AM_CONDITIONALs IC_FC_MPIFH
#     (include 'mpif.h'), IC_FC_USEMPI (use mpi), IC_FC_F08 (use mpi_f08);
#     IC_FC_MISMATCH_FLAGS: -fallow-argument-mismatch (and -w: such
#     programs warn about every call) when FC takes it, for the bindings
#     without interfaces for choice buffers (mpif.h; MPICH's `use mpi');
#   - IC_FINT_IS_INT when MPI_Fint is a C int (the Fortran entry points of
#     the library assume it);
#   - IC_ASAN_PRELOAD: the AddressSanitizer runtime, which must come first
#     in LD_PRELOAD when an --enable-sanitizers library is preloaded;
#   - IC_PMPI_LDFLAGS: -Wl,-Bsymbolic-functions when the linker takes it,
#     so that the library's calls of its own functions bind to them
#     (src/interpose/Makefile.inc says why);
#   - the test driver tests/interpose/run-interpose.sh.

# _IC_FC_LINK(BINDING, SOURCE): can $FC build and link SOURCE (free form)?
AC_DEFUN([_IC_FC_LINK], [
AC_MSG_CHECKING([whether $FC builds $1 programs])
cat >conftest_fc.f90 <<_ICEOF
$2
_ICEOF
AS_IF([$FC $FCFLAGS -o conftest_fc$EXEEXT conftest_fc.f90 >&AS_MESSAGE_LOG_FD 2>&1 &&
       test -s conftest_fc$EXEEXT], [ic_ok=yes], [ic_ok=no
       echo "configure: failed program was:" >&AS_MESSAGE_LOG_FD
       cat conftest_fc.f90 >&AS_MESSAGE_LOG_FD])
rm -f conftest_fc.f90 conftest_fc$EXEEXT conftest_fc.o
AC_MSG_RESULT([$ic_ok])
])

AC_DEFUN([IC_INTERPOSE], [
AC_ARG_ENABLE([fortran],
  [AS_HELP_STRING([--disable-fortran], [do not build the Fortran tests of the interposition library])],
  [], [enable_fortran=yes])
AC_ARG_VAR([FC], [MPI Fortran compiler wrapper for the interposition tests (default: the one beside CC)])
AC_ARG_VAR([FCFLAGS], [Fortran compiler flags])
: ${FCFLAGS=-g -O2}
AS_IF([test "x$enable_fortran" = xno || test "x$ic_mpi_flavour" = xsmpi], [FC=],
      [test -z "$FC"], [
  ic_cc_prog=`echo "$CC" | sed 's/ .*//'`
  ic_cc_base=`basename "$ic_cc_prog"`
  ic_cc_dir=`dirname "$ic_cc_prog"`
  ic_fc_suffix=`echo "$ic_cc_base" | sed -n 's/^mpicc//p'`
  AS_IF([test "x$ic_cc_dir" != x. && test -x "$ic_cc_dir/mpifort$ic_fc_suffix"],
        [FC="$ic_cc_dir/mpifort$ic_fc_suffix"],
        [AC_CHECK_PROGS([FC], [mpifort$ic_fc_suffix mpif90$ic_fc_suffix])])
])

ic_fc_mpifh=no
ic_fc_usempi=no
ic_fc_f08=no
AS_IF([test -n "$FC"], [
  _IC_FC_LINK([mpif.h], [program main
  include 'mpif.h'
  integer :: ierr
  call MPI_INIT(ierr)
  call MPI_FINALIZE(ierr)
end program main])
  ic_fc_mpifh=$ic_ok
  # mpif.h declares no interfaces (nor do some `use mpi' modules for choice
  # buffers): gfortran >= 10 rejects one routine called with buffers of
  # different types or ranks unless told to allow it.
  ic_save_FCFLAGS=$FCFLAGS
  FCFLAGS="$FCFLAGS -fallow-argument-mismatch"
  _IC_FC_LINK([-fallow-argument-mismatch], [program main
  print *, 1
end program main])
  FCFLAGS=$ic_save_FCFLAGS
  AS_IF([test "x$ic_ok" = xyes], [IC_FC_MISMATCH_FLAGS="-fallow-argument-mismatch -w"])
  _IC_FC_LINK([`use mpi'], [program main
  use mpi
  integer :: ierr
  call MPI_INIT(ierr)
  call MPI_FINALIZE(ierr)
end program main])
  ic_fc_usempi=$ic_ok
  _IC_FC_LINK([`use mpi_f08'], [program main
  use mpi_f08
  call MPI_Init()
  call MPI_Finalize()
end program main])
  ic_fc_f08=$ic_ok
], [AC_MSG_NOTICE([no MPI Fortran compiler: the Fortran interposition tests are skipped])])
AM_CONDITIONAL([IC_FC_MPIFH], [test "x$ic_fc_mpifh" = xyes])
AM_CONDITIONAL([IC_FC_USEMPI], [test "x$ic_fc_usempi" = xyes])
AM_CONDITIONAL([IC_FC_F08], [test "x$ic_fc_f08" = xyes])
# The Fortran name of the persistent allreduce the Fortran test program
# calls: MPI-4's, or Open MPI's extension before MPI-4 (its pcollreq).
AS_CASE([$ic_mpi_flavour],
  [openmpi], [IC_FC_INIT=-DICF_INIT=MPIX_ALLREDUCE_INIT],
  [mpich], [IC_FC_INIT=-DICF_INIT=MPI_ALLREDUCE_INIT],
  [IC_FC_INIT=])
AC_SUBST([IC_FC_INIT])

AC_MSG_CHECKING([whether MPI_Fint is int])
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                   [[_Static_assert(sizeof(MPI_Fint) == sizeof(int), "");]])],
  [AC_MSG_RESULT([yes])
   AC_DEFINE([IC_FINT_IS_INT], [1], [Define to 1 when MPI_Fint is a C int])],
  [AC_MSG_RESULT([no (the interposition library has no Fortran entry points)])])

IC_ASAN_PRELOAD=
AS_IF([test "x$enable_sanitizers" = xyes], [
  ic_asan=`$CC -print-file-name=libasan.so 2>/dev/null`
  AS_IF([test -f "$ic_asan"], [IC_ASAN_PRELOAD=$ic_asan])
])
AC_SUBST([IC_ASAN_PRELOAD])

AC_MSG_CHECKING([whether the linker takes -Wl,-Bsymbolic-functions])
ic_save_LDFLAGS=$LDFLAGS
LDFLAGS="$LDFLAGS -Wl,-Bsymbolic-functions"
AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
  [IC_PMPI_LDFLAGS=-Wl,-Bsymbolic-functions], [IC_PMPI_LDFLAGS=])
LDFLAGS=$ic_save_LDFLAGS
AC_MSG_RESULT([${IC_PMPI_LDFLAGS:+yes}${IC_PMPI_LDFLAGS:-no}])
AC_SUBST([IC_PMPI_LDFLAGS])
AC_SUBST([IC_FC_MISMATCH_FLAGS])
AC_CONFIG_FILES([tests/interpose/run-interpose.sh], [chmod +x tests/interpose/run-interpose.sh])
])
