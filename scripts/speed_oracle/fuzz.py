#!/usr/bin/env python3
# Random sizes, layouts, bit depths and options on synthetic frames: vqcuda's
# CPU speed_chroma (driver.cpp) against libvmaf's (build.sh's harness).
#   g++ -O2 -ffp-contract=off -Ikernels -Ihostmath scripts/speed_oracle/driver.cpp \
#       hostmath/speed_chroma.cpp -o /tmp/spd/drv2
#   fuzz.py SEED COUNT   (expects /tmp/spd/drv2 and /tmp/oracle2/harness)
import random, subprocess, math, sys
random.seed(int(sys.argv[1]))
KS=[1.0,0.5,1.5,2.0,2/3,2.4,360/97,4/3,3.5/3,3.75/3,4.25/3,5/3,3.0,1/2.25,1.4746,1.54,1.6,1.06667,0.711111,0.74074,1.111111]
n=0;bad=0
for it in range(int(sys.argv[2])):
    ssx,ssy=random.choice([(1,1),(1,0),(0,0)])
    bpc=random.choice([8,8,10,12,16])
    W=random.randint(170,700); H=random.randint(170,500)
    ps=random.choice([1.0,1.0,random.uniform(0.3,2.5)]); ps=round(ps,3)
    m=random.choice(['nearest','bilinear','bicubic','lanczos4'])
    o=[repr(random.choice(KS)),repr(ps),m,repr(round(random.uniform(0.1,2.0),3)),repr(round(random.uniform(0,1),3)),repr(random.choice([1000.0,45.0,5.0])),str(random.randint(0,6))]
    B=2 if bpc>8 else 1
    cw=(W+ssx)>>ssx; ch=(H+ssy)>>ssy
    fs=(W*H+2*cw*ch)
    mx=(1<<bpc)-1
    def frame(seed, amp):
        rr=random.Random(seed); vals=[]
        ph=[rr.uniform(0,6) for _ in range(6)]
        for p,(pw,phh) in enumerate([(W,H),(cw,ch),(cw,ch)]):
            for i in range(phh):
                for j in range(pw):
                    v=0.5+0.25*math.sin(j*0.05+ph[p])*math.cos(i*0.07+ph[p+3])+amp*rr.uniform(-1,1)
                    vals.append(max(0,min(mx,int(v*mx))))
        if B==1: return bytes(vals)
        import struct; return struct.pack('<%dH'%len(vals),*vals)
    s=random.randint(0,1<<30)
    open('/tmp/spd/fr.yuv','wb').write(frame(s,0.1)+frame(s+1,0.1))
    open('/tmp/spd/fd.yuv','wb').write(frame(s,0.15)+frame(s+2,0.05))
    args=['/tmp/spd/fr.yuv','/tmp/spd/fd.yuv',str(W),str(H),str(ssx),str(ssy),str(bpc),'2']+o
    a=subprocess.run(['/tmp/spd/drv2']+args,capture_output=True,text=True).stdout
    if a.startswith('REFUSED'): continue
    b=subprocess.run(['/tmp/oracle2/harness']+args,capture_output=True,text=True).stdout
    n+=1
    if a!=b: bad+=1; print('DIFF',args,a,b)
print('compared',n,'bad',bad)
