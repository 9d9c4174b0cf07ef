! icp_coll_f.F90 -- an ordinary Fortran MPI program (it knows nothing of
! InterCom) that calls every collective libintercom-pmpi intercepts, with
! MPI_IN_PLACE wherever MPI allows it, MPI_BOTTOM with an absolute-address
! datatype, predefined ops, MINLOC on MPI_2INTEGER, a non-commutative user
! op, and a call with an invalid argument under MPI_ERRORS_RETURN.
!
! Built three times: -DICF_MPIFH (include 'mpif.h'), -DICF_USEMPI
! (use mpi), -DICF_F08 (use mpi_f08, some calls without IERROR).  Every
! rank checks its results against values it computes itself and takes a
! checksum; rank 0 prints one line per case with every rank's checksum
! (collected with MPI_SEND/MPI_RECV).  tests/interpose/run-interpose.sh runs
! it plain and under the preload and requires identical output.

#if defined(ICF_F08)
#define T_COMM type(MPI_Comm)
#define T_TYPE type(MPI_Datatype)
#define T_OP type(MPI_Op)
#else
#define T_COMM integer
#define T_TYPE integer
#define T_OP integer
#endif

! The non-commutative user op: 2x2 matrix products modulo 1009,
! inout = in * inout for each of the len matrices.
subroutine icf_matmul(a, b, len)
  implicit none
  integer, intent(in) :: len
  integer, intent(in) :: a(4, len)
  integer, intent(inout) :: b(4, len)
  integer, parameter :: modp = 1009
  integer :: k, c(4)
  do k = 1, len
    c(1) = mod(a(1, k) * b(1, k) + a(2, k) * b(3, k), modp)
    c(2) = mod(a(1, k) * b(2, k) + a(2, k) * b(4, k), modp)
    c(3) = mod(a(3, k) * b(1, k) + a(4, k) * b(3, k), modp)
    c(4) = mod(a(3, k) * b(2, k) + a(4, k) * b(4, k), modp)
    b(:, k) = c
  end do
end subroutine icf_matmul

#if defined(ICF_F08)
subroutine matmul_op(invec, inoutvec, len, datatype)
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  type(c_ptr), value :: invec, inoutvec
  integer :: len
  type(MPI_Datatype) :: datatype
  integer, pointer :: a(:), b(:)
  call c_f_pointer(invec, a, [4 * len])
  call c_f_pointer(inoutvec, b, [4 * len])
  call icf_matmul(a, b, len)
  if (.false.) print *, datatype%MPI_VAL
end subroutine matmul_op
#else
subroutine matmul_op(a, b, len, datatype)
  implicit none
  integer :: len, datatype
  integer :: a(4, len), b(4, len)
  call icf_matmul(a, b, len)
  if (.false.) print *, datatype
end subroutine matmul_op
#endif

program icp_coll_f
#if defined(ICF_F08)
  use mpi_f08
#elif defined(ICF_USEMPI)
  use mpi
#endif
  implicit none
#if defined(ICF_MPIFH)
  include 'mpif.h'
#endif
  integer, parameter :: maxcase = 1000, modp = 1009
  integer :: rank, nprocs, ncase = 0, nwrong = 0
  integer(8) :: sums(maxcase)
  character(len=64) :: names(maxcase)
#if defined(ICF_F08)
  procedure(MPI_User_function) :: matmul_op
#else
  external :: matmul_op
#endif
  external :: icf_matmul
  integer, parameter :: nsz = 4
  integer :: sizes(nsz) = [0, 1, 7, 3000]
  integer :: ierr, s, n, root, r, i, j, k, cls, tot, mine, at, big
  integer, allocatable :: sb(:), rb(:), want(:), counts(:), displs(:), all(:)
  integer :: pair(2, 3000), pres(2, 3000), pwant(2, 3000), m(4), acc(4)
  integer :: mats(4, 50), mres(4, 50), mwant(4, 50)
  integer(8), allocatable :: allsums(:, :)
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer :: blen(1)
  character(len=64) :: nm
  T_COMM :: comm, ecomm
  T_TYPE :: absolute, mat
  T_OP :: userop
#if defined(ICF_F08)
  type(MPI_Status) :: st
  type(MPI_Request) :: req, preq
#else
  integer :: st(MPI_STATUS_SIZE)
  integer :: req, preq
#endif

  call MPI_INIT(ierr)
  comm = MPI_COMM_WORLD
  call MPI_COMM_RANK(comm, rank, ierr)
  call MPI_COMM_SIZE(comm, nprocs, ierr)
  allocate (counts(nprocs), displs(nprocs))

  do s = 1, nsz
    n = sizes(s)
    big = 4 * n * nprocs + nprocs + 1   ! room for every layout below
    allocate (sb(big), rb(big), want(big))
    do j = 1, 2
      root = merge(0, nprocs - 1, j == 1)
      ! ---------------------------------------------------------- bcast
      rb = -1
      if (rank == root) rb(1:n) = [(val(root, i), i = 1, n)]
      want(1:n) = [(val(root, i), i = 1, n)]
      call MPI_BCAST(rb, n, MPI_INTEGER, root, comm, ierr)
      write (nm, '(a,i0,a,i0)') 'bcast n=', n, ' root=', root
      call note(nm, rb, n, want)
      ! -------------------------------- reduce (and in place at root 0:
      ! MPICH before 4.1.2 crashes with MPI_IN_PLACE at a non-zero root)
      do k = 0, merge(1, 0, root == 0)
        sb(1:n) = [(val(rank, i), i = 1, n)]
        rb = -1
        want(1:n) = [(sum([(val(r, i), r = 0, nprocs - 1)]), i = 1, n)]
        if (k == 1 .and. rank == root) then
          rb(1:n) = sb(1:n)
          call MPI_REDUCE(MPI_IN_PLACE, rb, n, MPI_INTEGER, MPI_SUM, root, comm, ierr)
        else
          call MPI_REDUCE(sb, rb, n, MPI_INTEGER, MPI_SUM, root, comm, ierr)
        end if
        write (nm, '(a,i0,a,i0,a,i0)') 'reduce sum n=', n, ' root=', root, ' in-place=', k
        call note_if(rank == root, nm, rb, n, want)
      end do
      ! ----------------------------------------- scatter (and in place)
      do k = 0, 1
        sb = -1
        if (rank == root) sb(1:n * nprocs) = [(val(root, i), i = 1, n * nprocs)]
        rb = -1
        want(1:n) = [(val(root, rank * n + i), i = 1, n)]
        if (k == 1 .and. rank == root) then
          call MPI_SCATTER(sb, n, MPI_INTEGER, MPI_IN_PLACE, n, MPI_INTEGER, root, comm, ierr)
        else
          call MPI_SCATTER(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, root, comm, ierr)
        end if
        write (nm, '(a,i0,a,i0,a,i0)') 'scatter n=', n, ' root=', root, ' in-place=', k
        call note_if(.not. (k == 1 .and. rank == root), nm, rb, n, want)
      end do
      ! ------------------------------------------ gather (and in place)
      do k = 0, 1
        sb(1:n) = [(val(rank, i), i = 1, n)]
        rb = -1
        do r = 0, nprocs - 1
          want(r * n + 1:r * n + n) = [(val(r, i), i = 1, n)]
        end do
        if (k == 1 .and. rank == root) then
          rb(root * n + 1:root * n + n) = sb(1:n)
          call MPI_GATHER(MPI_IN_PLACE, n, MPI_INTEGER, rb, n, MPI_INTEGER, root, comm, ierr)
        else
          call MPI_GATHER(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, root, comm, ierr)
        end if
        write (nm, '(a,i0,a,i0,a,i0)') 'gather n=', n, ' root=', root, ' in-place=', k
        call note_if(rank == root, nm, rb, n * nprocs, want)
      end do
      ! ----------------------------------- scatterv, gatherv (in place)
      do k = 0, 1
        tot = 0
        do r = nprocs, 1, -1          ! reversed blocks with one-element gaps
          counts(r) = mod(r * 2 - 1, 4) * n
          displs(r) = tot
          tot = tot + counts(r) + 1
        end do
        mine = counts(rank + 1)
        deallocate (sb, rb, want)
        allocate (sb(max(1, tot)), rb(max(1, tot)), want(max(1, tot)))
        sb = -1
        if (rank == root) then
          do r = 1, nprocs
            sb(displs(r) + 1:displs(r) + counts(r)) = &
                [(val(root, r * 1000 + i), i = 1, counts(r))]
          end do
        end if
        rb = -1
        want(1:mine) = [(val(root, (rank + 1) * 1000 + i), i = 1, mine)]
        if (k == 1 .and. rank == root) then
          call MPI_SCATTERV(sb, counts, displs, MPI_INTEGER, MPI_IN_PLACE, mine, MPI_INTEGER, &
                            root, comm, ierr)
        else
          call MPI_SCATTERV(sb, counts, displs, MPI_INTEGER, rb, mine, MPI_INTEGER, root, comm, &
                            ierr)
        end if
        write (nm, '(a,i0,a,i0,a,i0)') 'scatterv n=', n, ' root=', root, ' in-place=', k
        call note_if(.not. (k == 1 .and. rank == root), nm, rb, mine, want)

        sb(1:mine) = [(val(rank, i), i = 1, mine)]
        rb = -1
        want = -1
        do r = 1, nprocs
          want(displs(r) + 1:displs(r) + counts(r)) = [(val(r - 1, i), i = 1, counts(r))]
        end do
        if (k == 1 .and. rank == root) then
          rb(displs(rank + 1) + 1:displs(rank + 1) + mine) = sb(1:mine)
          call MPI_GATHERV(MPI_IN_PLACE, mine, MPI_INTEGER, rb, counts, displs, MPI_INTEGER, &
                           root, comm, ierr)
        else
          call MPI_GATHERV(sb, mine, MPI_INTEGER, rb, counts, displs, MPI_INTEGER, root, comm, &
                           ierr)
        end if
        write (nm, '(a,i0,a,i0,a,i0)') 'gatherv n=', n, ' root=', root, ' in-place=', k
        call note_if(rank == root, nm, rb, tot, want)
        deallocate (sb, rb, want)
        allocate (sb(big), rb(big), want(big))
      end do
    end do

    do k = 0, 1
      ! ----------------------------------------- allreduce (and in place)
      sb(1:n) = [(val(rank, i), i = 1, n)]
      rb = -1
      want(1:n) = [(maxval([(val(r, i), r = 0, nprocs - 1)]), i = 1, n)]
      if (k == 1) then
        rb(1:n) = sb(1:n)
        call MPI_ALLREDUCE(MPI_IN_PLACE, rb, n, MPI_INTEGER, MPI_MAX, comm, ierr)
      else
        call MPI_ALLREDUCE(sb, rb, n, MPI_INTEGER, MPI_MAX, comm, ierr)
      end if
      write (nm, '(a,i0,a,i0)') 'allreduce max n=', n, ' in-place=', k
      call note(nm, rb, n, want)
      ! ----------------------------------------- allgather (and in place)
      sb(1:n) = [(val(rank, i), i = 1, n)]
      rb = -1
      do r = 0, nprocs - 1
        want(r * n + 1:r * n + n) = [(val(r, i), i = 1, n)]
      end do
      if (k == 1) then
        rb(rank * n + 1:rank * n + n) = sb(1:n)
        call MPI_ALLGATHER(MPI_IN_PLACE, n, MPI_INTEGER, rb, n, MPI_INTEGER, comm, ierr)
      else
        call MPI_ALLGATHER(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, comm, ierr)
      end if
      write (nm, '(a,i0,a,i0)') 'allgather n=', n, ' in-place=', k
      call note(nm, rb, n * nprocs, want)
      ! ---------------------------------------- allgatherv (and in place)
      tot = 0
      do r = nprocs, 1, -1
        counts(r) = mod(r * 2 - 1, 4) * n
        displs(r) = tot
        tot = tot + counts(r) + 1
      end do
      mine = counts(rank + 1)
      allocate (all(max(1, tot)))
      all = -1
      deallocate (want)
      allocate (want(max(1, tot)))
      want = -1
      do r = 1, nprocs
        want(displs(r) + 1:displs(r) + counts(r)) = [(val(r - 1, i), i = 1, counts(r))]
      end do
      sb(1:mine) = [(val(rank, i), i = 1, mine)]
      if (k == 1) then
        all(displs(rank + 1) + 1:displs(rank + 1) + mine) = sb(1:mine)
        call MPI_ALLGATHERV(MPI_IN_PLACE, mine, MPI_INTEGER, all, counts, displs, MPI_INTEGER, &
                            comm, ierr)
      else
        call MPI_ALLGATHERV(sb, mine, MPI_INTEGER, all, counts, displs, MPI_INTEGER, comm, ierr)
      end if
      write (nm, '(a,i0,a,i0)') 'allgatherv n=', n, ' in-place=', k
      call note(nm, all, tot, want)
      deallocate (all, want)
      allocate (want(big))
      ! ------------------------------------ reduce_scatter (and in place)
      tot = 0
      at = 0
      do r = 1, nprocs
        counts(r) = mod(r * 2 - 1, 4) * n
        if (r == rank + 1) at = tot
        tot = tot + counts(r)
      end do
      mine = counts(rank + 1)
      allocate (all(max(1, tot)))
      all(1:tot) = [(val(rank, i), i = 1, tot)]
      rb = -1
      want(1:mine) = [(sum([(val(r, at + i), r = 0, nprocs - 1)]), i = 1, mine)]
      if (k == 1) then
        call MPI_REDUCE_SCATTER(MPI_IN_PLACE, all, counts, MPI_INTEGER, MPI_SUM, comm, ierr)
        rb(1:mine) = all(1:mine)
      else
        call MPI_REDUCE_SCATTER(all, rb, counts, MPI_INTEGER, MPI_SUM, comm, ierr)
      end if
      write (nm, '(a,i0,a,i0)') 'reduce_scatter n=', n, ' in-place=', k
      call note(nm, rb, mine, want)
      deallocate (all)
      ! ------------------------------ reduce_scatter_block (and in place)
      sb(1:n * nprocs) = [(val(rank, i), i = 1, n * nprocs)]
      rb = -1
      want(1:n) = [(sum([(val(r, rank * n + i), r = 0, nprocs - 1)]), i = 1, n)]
      if (k == 1) then
        rb(1:n * nprocs) = sb(1:n * nprocs)
        call MPI_REDUCE_SCATTER_BLOCK(MPI_IN_PLACE, rb, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      else
        call MPI_REDUCE_SCATTER_BLOCK(sb, rb, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      end if
      write (nm, '(a,i0,a,i0)') 'reduce_scatter_block n=', n, ' in-place=', k
      call note(nm, rb, n, want)
    end do
    deallocate (sb, rb, want)
  end do

  ! ------------------------------------------- MINLOC on MPI_2INTEGER
  do i = 1, 3000
    pair(:, i) = [mod(i * 7 + rank * 13, 5), rank]
    pwant(:, i) = [mod(i * 7, 5), 0]
    do r = 1, nprocs - 1
      if (mod(i * 7 + r * 13, 5) < pwant(1, i)) pwant(:, i) = [mod(i * 7 + r * 13, 5), r]
    end do
  end do
  pres = -1
  call MPI_ALLREDUCE(pair, pres, 3000, MPI_2INTEGER, MPI_MINLOC, comm, ierr)
  call note('allreduce minloc 2integer', pres, 6000, pwant)

  ! -------------------------------------- non-commutative user op
  call MPI_TYPE_CONTIGUOUS(4, MPI_INTEGER, mat, ierr)
  call MPI_TYPE_COMMIT(mat, ierr)
  call MPI_OP_CREATE(matmul_op, .false., userop, ierr)
  do i = 1, 50
    call matrix_of(rank, i, mats(:, i))
    call matrix_of(0, i, acc)
    do r = 1, nprocs - 1
      call matrix_of(r, i, m)
      call icf_matmul(acc, m, 1)
      acc = m
    end do
    mwant(:, i) = acc
  end do
  mres = -1
  call MPI_ALLREDUCE(mats, mres, 50, mat, userop, comm, ierr)
  call note('allreduce user op', mres, 200, mwant)
  mres = -1
  call MPI_REDUCE(mats, mres, 50, mat, userop, nprocs - 1, comm, ierr)
  call note_if(rank == nprocs - 1, 'reduce user op', mres, 200, mwant)
  call MPI_OP_FREE(userop, ierr)
  call MPI_TYPE_FREE(mat, ierr)

  ! ------------------------- nonblocking and persistent allreduce
  ! (the persistent call: ICF_INIT, MPI-4's MPI_ALLREDUCE_INIT or Open
  ! MPI's MPIX_ALLREDUCE_INIT, called without an interface)
  allocate (sb(1000), rb(1000), want(1000))
  sb = [(val(rank, i), i = 1, 1000)]
  want = [(sum([(val(r, i), r = 0, nprocs - 1)]), i = 1, 1000)]
  rb = -1
  call MPI_IALLREDUCE(sb, rb, 1000, MPI_INTEGER, MPI_SUM, comm, req, ierr)
  call MPI_WAIT(req, st, ierr)
  call note('iallreduce sum', rb, 1000, want)
#if defined(ICF_INIT)
  call ICF_INIT(sb, rb, 1000, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, preq, ierr)
  do k = 1, 3
    sb = [(val(rank, i) + k, i = 1, 1000)]
    want = [(sum([(val(r, i) + k, r = 0, nprocs - 1)]), i = 1, 1000)]
    rb = -1
    call MPI_START(preq, ierr)
    call MPI_WAIT(preq, st, ierr)
    write (nm, '(a,i0)') 'persistent allreduce sum, run ', k
    call note(nm, rb, 1000, want)
  end do
  call MPI_REQUEST_FREE(preq, ierr)
#endif
  deallocate (sb, rb, want)

  ! ------------------------- MPI_BOTTOM with an absolute-address type
  allocate (rb(5), want(5))
  rb = -1
  if (rank == 0) rb = [(val(0, i), i = 1, 5)]
  want = [(val(0, i), i = 1, 5)]
  call MPI_GET_ADDRESS(rb, addr(1), ierr)
  blen(1) = 5
  call MPI_TYPE_CREATE_HINDEXED(1, blen, addr, MPI_INTEGER, absolute, ierr)
  call MPI_TYPE_COMMIT(absolute, ierr)
  call MPI_BCAST(MPI_BOTTOM, 1, absolute, 0, comm, ierr)
  call note('bcast MPI_BOTTOM', rb, 5, want)
  call MPI_TYPE_FREE(absolute, ierr)
  deallocate (rb, want)

  ! ------------------------------------ barrier; an invalid argument
#if defined(ICF_F08)
  call MPI_Barrier(comm)
  call MPI_Comm_dup(comm, ecomm)
  call MPI_Comm_set_errhandler(ecomm, MPI_ERRORS_RETURN)
#else
  call MPI_BARRIER(comm, ierr)
  call MPI_COMM_DUP(comm, ecomm, ierr)
  call MPI_COMM_SET_ERRHANDLER(ecomm, MPI_ERRORS_RETURN, ierr)
#endif
  call note_none('barrier')
  allocate (rb(4))
  rb = 5
  call MPI_BCAST(rb, -1, MPI_INTEGER, 0, ecomm, ierr)
  call MPI_ERROR_CLASS(ierr, cls, k)
  call note('bcast count -1 under MPI_ERRORS_RETURN', [cls, rb], 5, [MPI_ERR_COUNT, 5, 5, 5, 5])
  call MPI_COMM_FREE(ecomm, ierr)

  ! ----------------------------- rank 0 prints every rank's checksums
  allocate (allsums(ncase, nprocs))
  if (rank == 0) then
    allsums(:, 1) = sums(1:ncase)
    do r = 1, nprocs - 1
      call MPI_RECV(allsums(:, r + 1), ncase, MPI_INTEGER8, r, 1, comm, st, ierr)
      call MPI_RECV(k, 1, MPI_INTEGER, r, 2, comm, st, ierr)
      nwrong = nwrong + k
    end do
    write (*, '(a,i0)') 'processes ', nprocs
    do i = 1, ncase
      write (*, '(a,a)', advance='no') trim(names(i)), ':'
      do r = 1, nprocs
        write (*, '(1x,i0)', advance='no') allsums(i, r)
      end do
      write (*, *)
    end do
    write (*, '(a,i0,a,i0)') 'cases ', ncase, ', wrong results ', nwrong
  else
    call MPI_SEND(sums, ncase, MPI_INTEGER8, 0, 1, comm, ierr)
    call MPI_SEND(nwrong, 1, MPI_INTEGER, 0, 2, comm, ierr)
  end if
  call MPI_FINALIZE(ierr)
  if (rank == 0 .and. nwrong > 0) stop 1

contains

  integer function val(r, i)
    integer, intent(in) :: r, i
    val = (r + 1) * 100 + mod(i, 97)
  end function val

  subroutine matrix_of(r, i, m)
    integer, intent(in) :: r, i
    integer, intent(out) :: m(4)
    m = [mod(val(r, i), modp), r + 1, mod(i, 13), 3]
  end subroutine matrix_of

  ! Checksum of v(1:n) for case `name`; a wrong result when v /= want.
  subroutine note(name, v, n, want)
    character(len=*), intent(in) :: name
    integer, intent(in) :: n
    integer, intent(in) :: v(*), want(*)
    integer(8) :: h
    integer :: i
    h = 7
    do i = 1, n
      h = mod(h * 31_8 + int(v(i), 8) + 1000003_8, 1000000007_8)
    end do
    do i = 1, n
      if (v(i) /= want(i)) then
        nwrong = nwrong + 1
        write (0, '(a,i0,a,a,a)') 'icp_coll_f: rank ', rank, ': ', trim(name), ': wrong result'
        exit
      end if
    end do
    ncase = ncase + 1
    names(ncase) = name
    sums(ncase) = h
  end subroutine note

  ! note() where the buffer is significant on this rank, note_none() elsewhere.
  subroutine note_if(significant, name, v, n, want)
    logical, intent(in) :: significant
    character(len=*), intent(in) :: name
    integer, intent(in) :: n
    integer, intent(in) :: v(*), want(*)
    if (significant) then
      call note(name, v, n, want)
    else
      call note_none(name)
    end if
  end subroutine note_if

  subroutine note_none(name)
    character(len=*), intent(in) :: name
    integer :: none(1)
    none(1) = 0
    call note(name, none, 0, none)
  end subroutine note_none

end program icp_coll_f
